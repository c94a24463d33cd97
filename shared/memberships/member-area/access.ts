import { timingSafeEqual } from 'node:crypto';
import { buyerLanguage } from '../../account/buyer-language';
import { prepareTransactional } from '../../email/outbox';
import type { Deps } from '../../platform/context';
import type { DomainEvent } from '../../platform/events';
import { ApiError } from '../../platform/errors';
import { randomBase62 } from '../../platform/ids';
import { logger } from '../../platform/logger';
import { isConditionFailed } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import { areaWrites, findAreaToken, getArea, getBan } from '../community/repository';
import { accessMail, type AreaRefusal } from './pages';
import type { MemberAreaRecord, MemberRecord, MembershipRecord } from '../records';
import { getMember, getMembership } from '../repository';

/** The member area's path: `{base}/member-area/{token}`. The token is 32 base62 characters (190 bits). */
export const areaUrl = (deps: Deps, token: string) => `${(deps.config.PUBLIC_BASE_URL ?? '').replace(/\/$/, '')}/member-area/${token}`;

/**
 * `member.joined` consumer: issues the member's link (a fresh token per join, so a link from an
 * earlier membership period stays dead) and mails it. The link is stored under the join event's
 * id, so a redelivered event neither issues a second token nor, once mailed, sends a second mail:
 * the mail is queued for the email worker in the transaction that marks the link mailed.
 */
export async function issueAreaLink(deps: Deps, event: DomainEvent) {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const membershipId = String((event.data.membership as { id?: string } | undefined)?.id ?? '');
  const email = String((event.data.member as { email?: string } | undefined)?.email ?? '');
  if (!membershipId || !email) return;
  const [membership, member] = await Promise.all([getMembership(deps.store, scope, membershipId), getMember(deps.store, scope, membershipId, email)]);
  if (!membership || member?.status !== 'active') return;
  let area = await getArea(deps.store, scope, membershipId, email);
  if (area?.joinEventId !== event.id) {
    const next: MemberAreaRecord = {
      email,
      membershipId,
      token: randomBase62(32),
      csrf: randomBase62(32),
      joinEventId: event.id,
      mailed: false,
      issuedAt: deps.clock.now().toISOString(),
    };
    try {
      await deps.store.transact(areaWrites.issue(scope, next, area));
      area = next;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      area = await getArea(deps.store, scope, membershipId, email);
      if (area?.joinEventId !== event.id) return;
    }
  }
  if (area.mailed) return;
  // In the member's language: the one saved at their checkout, else the creator's default.
  const mail = accessMail({ membershipName: membership.name, url: areaUrl(deps, area.token) }, await buyerLanguage(deps, scope, { email }));
  let queued: TransactOp[] = [];
  try {
    queued = (
      await prepareTransactional(deps, scope, {
        to: [email],
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        locale: mail.locale,
        source: 'membership',
        track: false,
      })
    ).ops;
  } catch (error) {
    // An address the mail cannot take: the link still works and is not retried forever.
    if (error instanceof ApiError && error.status < 500) {
      logger.warn('member area link not mailed', { error: error as Error, code: error.code });
    } else throw error;
  }
  await deps.store.transact([areaWrites.mailed(scope, area), ...queued]).catch((error) => {
    if (!isConditionFailed(error)) throw error;
  });
}

/** `member.left` consumer: the member's link stops working (the live checks refuse it before this runs). */
export async function revokeAreaLink(deps: Deps, event: DomainEvent) {
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const membershipId = String((event.data.membership as { id?: string } | undefined)?.id ?? '');
  const email = String((event.data.member as { email?: string } | undefined)?.email ?? '');
  if (!membershipId || !email) return;
  const member = await getMember(deps.store, scope, membershipId, email);
  if (member?.status === 'active') return; // joined again since: the new link stays
  const area = await getArea(deps.store, scope, membershipId, email);
  if (!area) return;
  await deps.store.transact(areaWrites.revoke(scope, area)).catch((error) => {
    if (!isConditionFailed(error)) throw error;
  });
}

export interface AreaAccess {
  scope: Scope;
  membership: MembershipRecord;
  member: MemberRecord;
  area: MemberAreaRecord;
}

/**
 * Resolves a link to its member, checked live on every request: the token must still be the
 * member's current one, the member active, not banned, the membership open.
 */
export async function resolveArea(deps: Deps, token: string): Promise<AreaAccess | { refused: AreaRefusal }> {
  if (!/^[0-9A-Za-z]{32}$/.test(token)) return { refused: 'invalid' };
  const found = await findAreaToken(deps.store, token);
  if (!found) return { refused: 'invalid' };
  const scope: Scope = { accountId: found.accountId, mode: found.mode };
  const [membership, member, area, ban] = await Promise.all([
    getMembership(deps.store, scope, found.membershipId),
    getMember(deps.store, scope, found.membershipId, found.email),
    getArea(deps.store, scope, found.membershipId, found.email),
    getBan(deps.store, scope, found.email),
  ]);
  if (!membership || !area || area.token !== token) return { refused: 'invalid' };
  if (membership.status !== 'active') return { refused: 'closed' };
  if (!member || member.status !== 'active') return { refused: 'ended' };
  if (ban) return { refused: 'banned' };
  return { scope, membership, member, area };
}

/** Constant-time comparison of a form's CSRF field with the member's secret. */
export function csrfValid(area: MemberAreaRecord, submitted: string | undefined) {
  if (!submitted) return false;
  const a = Buffer.from(area.csrf);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}
