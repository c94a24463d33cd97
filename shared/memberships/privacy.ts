import type { Deps } from '../platform/context';
import type { PrivacyPart, PrivacySubject } from '../platform/privacy';
import { onConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import { areaWrites, authorContentPage, authorErasure, getArea } from './community/repository';
import { getMember, listMemberships, memberErasure } from './repository';

/** What an erased author is shown as in the community: no address, and the same for all their posts. */
export const erasedAuthor = (customerId: string) => `erased-${customerId}`;

/** Everything the buyer wrote in the communities, one page at a time. */
async function* contentOf(deps: Deps, scope: Scope, email: string) {
  let cursor: string | undefined;
  do {
    const page = await authorContentPage(deps.store, scope, email, cursor, 100);
    if (page.items.length) yield page.items;
    cursor = page.cursor;
  } while (cursor);
}

/**
 * Memberships (a seller has a handful, read whole) with the buyer's member row in each, and the
 * buyer's community threads and replies. Erasure deletes the member rows (their key is the
 * address) with their member-area links, and puts a pseudonym in place of the author's address
 * and name on every thread and reply; the text stays in the conversation others replied to. A ban
 * by address stays: it is what keeps a banned author out.
 */
const membershipsPart: PrivacyPart = {
  name: 'memberships',
  async *export(deps, scope, subject: PrivacySubject) {
    const rows = [];
    for (const membership of await listMemberships(deps.store, scope)) {
      const member = await getMember(deps.store, scope, membership._id, subject.email);
      if (member) rows.push({ membershipId: membership._id, membershipName: membership.name, ...member });
    }
    if (rows.length) yield rows;
  },
  async erase(deps, scope, subject) {
    for (const membership of await listMemberships(deps.store, scope)) {
      const member = await getMember(deps.store, scope, membership._id, subject.email);
      if (!member) continue;
      const area = await getArea(deps.store, scope, membership._id, subject.email);
      // A member changed meanwhile fails the transaction: the queue runs the part again.
      await deps.store.transact([...memberErasure(scope, membership._id, member), ...(area ? areaWrites.revoke(scope, area) : [])]);
    }
  },
};

const communityPart: PrivacyPart = {
  name: 'community',
  async *export(deps, scope, subject) {
    for await (const page of contentOf(deps, scope, subject.email))
      yield page.map(({ entity, record }) => ({ kind: entity === 'CommunityThread' ? 'thread' : 'reply', ...record }));
  },
  async erase(deps, scope, subject) {
    const pseudonym = erasedAuthor(subject.customerId);
    for await (const page of contentOf(deps, scope, subject.email)) {
      // A thread or reply deleted since the index was read has nothing left to erase.
      for (const { entity, record } of page) await onConditionFailed(deps.store.transact([authorErasure(scope, entity, record, pseudonym)]), () => undefined);
    }
  },
};

export const membershipsPrivacy: PrivacyPart[] = [membershipsPart, communityPart];
