import type { Deps } from '../platform/context';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import type { ContactRecord } from './records';
import * as repo from './repository';
import * as bulkStore from './bulk-store';
import { buildContact, normalizeEmail } from './rules';
import { type UpsertContactInput, checkTagCount, requireEmail } from './service';

/** Contacts in bulk: reads by id, bulk creation and imports. */

/** Full contacts by id (at most a page: a send batch), in the order asked. */
export async function contactsByIds(deps: Deps, scope: Scope, ids: string[]): Promise<ContactRecord[]> {
  return repo.getContacts(deps.store, scope, ids);
}

/**
 * Bulk seeding and imports of new contacts: BatchWriteItem of the very items a create writes
 * (contact, email guard, tags, facts delta). Skips the email-uniqueness condition: the caller
 * hands new, distinct addresses. A facts rebuild is due afterwards.
 */
export type ContactFactFields = Pick<ContactRecord, 'firstPurchaseAt' | 'lastPurchaseAt' | 'totalSpentCents' | 'productIds' | 'lastOpenAt' | 'lastClickAt'>;

export async function bulkCreateContacts(
  deps: Deps,
  scope: Scope,
  inputs: (UpsertContactInput & { facts?: Partial<ContactFactFields> })[],
): Promise<ContactRecord[]> {
  const now = deps.clock.now().toISOString();
  const contacts = inputs.map(({ facts, ...input }) => {
    const contact = { ...buildContact({ ...input, email: requireEmail(input.email) }, { id: objectId(deps.clock), now }), ...(facts ?? {}) };
    checkTagCount(contact);
    return contact;
  });
  await bulkStore.batchCreateContacts(deps.store, scope, contacts);
  return contacts;
}

export type ImportContactInput = UpsertContactInput & { id: string };
export type ImportContactOutcome = { state: 'created' | 'existing'; contactId: string } | { state: 'failed'; reason: string };

/** Claims per group: 8 BatchExecuteStatement calls of 25, one round in flight. */
const CLAIM_GROUP = 200;

/**
 * Imports: creates many new contacts at once; an address that already has a contact keeps it
 * exactly as it is (existing data wins, its status never changes). Each input brings the id its
 * contact gets, derived by the caller from the row, so a redone batch recognises its own work: an
 * address claimed by that very id is `created`, and its contact is written only if a crash left
 * the claim alone. The email claims are conditional inserts, each standing alone (`claimEmails`,
 * 25 to a call, 200 at a time; an address taken meanwhile is looked up again); each claimed group's
 * contacts, tags and facts deltas go by BatchWriteItem while the next group is claimed.
 * Answers one outcome per input, in order.
 */
export async function importContacts(
  deps: Deps,
  scope: Scope,
  inputs: ImportContactInput[],
  /** `held`: the contact ids of these addresses, looked up by the caller (`contactIdsByEmail`) beside its own reads; an address missing from it is claimed, and a claim that fails is looked up again, so a stale map costs a round trip, never a second contact. */
  options: { held?: Map<string, string> } = {},
): Promise<ImportContactOutcome[]> {
  const now = deps.clock.now().toISOString();
  const outcomes: (ImportContactOutcome | undefined)[] = new Array(inputs.length);
  const candidates: { index: number; contact: ContactRecord }[] = [];
  const firstOf = new Map<string, number>();
  inputs.forEach(({ id, ...input }, index) => {
    try {
      const contact = buildContact({ ...input, email: requireEmail(input.email) }, { id, now });
      checkTagCount(contact);
      // The same address twice in one call: the first row creates it, the others find it.
      if (firstOf.has(contact.email)) return;
      firstOf.set(contact.email, index);
      candidates.push({ index, contact });
    } catch (error) {
      if ((error as { status?: number }).status !== 400) throw error;
      outcomes[index] = { state: 'failed', reason: (error as Error).message };
    }
  });
  const held =
    options.held ??
    (await contactIdsByEmail(
      deps,
      scope,
      candidates.map((c) => c.contact.email),
    ));
  const toWrite: ContactRecord[] = [];
  const redone: { index: number; contact: ContactRecord }[] = [];
  const toClaim: typeof candidates = [];
  for (const candidate of candidates) {
    const holder = held.get(candidate.contact.email);
    if (!holder) toClaim.push(candidate);
    else if (holder === candidate.contact._id) redone.push(candidate);
    else outcomes[candidate.index] = { state: 'existing', contactId: holder };
  }
  // Claims: conditional inserts, a group at a time; each claimed group's contacts are written
  // while the next group is claimed. An address taken meanwhile (a signup, an earlier attempt of
  // this very batch) is looked at again below.
  const recheck: typeof candidates = [];
  const writes: Promise<void>[] = [];
  for (let i = 0; i < toClaim.length; i += CLAIM_GROUP) {
    const group = toClaim.slice(i, i + CLAIM_GROUP);
    const made = await bulkStore.claimEmails(
      deps.store,
      scope,
      group.map(({ contact }) => ({ email: contact.email, contactId: contact._id })),
    );
    const claimed = group.filter((candidate, k) => {
      if (made[k]) outcomes[candidate.index] = { state: 'created', contactId: candidate.contact._id };
      else recheck.push(candidate);
      return made[k];
    });
    if (!claimed.length) continue;
    const write = deps.store.batchPut(claimed.flatMap(({ contact }) => bulkStore.contactBodyItems(scope, contact)));
    write.catch(() => undefined); // judged below, with the others
    writes.push(write);
  }
  if (recheck.length) {
    const holders = await bulkStore.contactIdsByEmail(
      deps.store,
      scope,
      recheck.map((c) => c.contact.email),
    );
    for (const candidate of recheck) {
      const holder = holders.get(candidate.contact.email)!;
      if (holder === candidate.contact._id) redone.push(candidate);
      else outcomes[candidate.index] = { state: 'existing', contactId: holder };
    }
  }
  if (redone.length) {
    // Claimed by an earlier attempt: write the contact only where the crash left the claim alone,
    // so a contact changed since (unsubscribed, tagged) is never overwritten.
    const present = new Set(
      (
        await repo.getContacts(
          deps.store,
          scope,
          redone.map((c) => c.contact._id),
        )
      ).map((c) => c._id),
    );
    for (const candidate of redone) {
      outcomes[candidate.index] = { state: 'created', contactId: candidate.contact._id };
      if (!present.has(candidate.contact._id)) toWrite.push(candidate.contact);
    }
  }
  writes.push(deps.store.batchPut(toWrite.flatMap((contact) => bulkStore.contactBodyItems(scope, contact))));
  // Every write is awaited (settled first, so none is left running when one fails).
  const settled = await Promise.allSettled(writes);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return inputs.map((input, index) => {
    const outcome = outcomes[index];
    if (outcome) return outcome;
    const first = outcomes[firstOf.get(normalizeEmail(input.email))!]!;
    return first.state === 'failed' ? first : { state: 'existing', contactId: first.contactId };
  });
}

/**
 * Which of these addresses have a contact: email → contact id (BatchGetItem, no contact read).
 * The guards an earlier release wrote (one partition per account and mode, which no release
 * writes now) are looked up only when that partition holds any: one Query of one item beside the
 * lookup, instead of a second BatchGetItem of every address not found (for an import, nearly all).
 * As correct as the lookup itself: both are reads made before a claim.
 */
export async function contactIdsByEmail(deps: Deps, scope: Scope, emails: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(emails.map(normalizeEmail))];
  if (!unique.length) return new Map();
  const [items, earlier] = await Promise.all([
    deps.store.batchGet<{ SK: string; contactId: string }>(unique.map((email) => repo.emailKey(scope, email))),
    earlierGuardsExist(deps, scope),
  ]);
  const found = new Map(items.map((item) => [item.SK, item.contactId]));
  const missing = unique.filter((email) => !found.has(email));
  if (earlier && missing.length)
    for (const item of await deps.store.batchGet<{ SK: string; contactId: string }>(missing.map((email) => repo.emailKeyBefore(scope, email))))
      found.set(item.SK, item.contactId);
  return found;
}

/** Whether the account and mode hold any email guard of the layout before write shards (one Query of one item). */
async function earlierGuardsExist(deps: Deps, scope: Scope): Promise<boolean> {
  return (await deps.store.query({ pk: repo.emailKeyBefore(scope, '').PK, limit: 1 })).items.length > 0;
}

/**
 * The `held` map for `importContacts`, by a caller that expects these addresses to be new (an
 * import whose rows have so far found few contacts): no lookup at all, since a claim is itself
 * the lookup (a claim on a held address fails and is looked up again), unless guards of the
 * layout before write shards exist, which a claim does not see; then the whole lookup.
 */
export async function contactIdsForClaims(deps: Deps, scope: Scope, emails: string[]): Promise<Map<string, string>> {
  return (await earlierGuardsExist(deps, scope)) ? contactIdsByEmail(deps, scope, emails) : new Map();
}

/** Of many addresses (an import's batch), those on the suppression list (repository.ts suppressedAmong). */
export async function suppressedAmongMany(deps: Deps, scope: Scope, emails: string[]): Promise<Set<string>> {
  return repo.suppressedAmong(deps.store, scope, [...new Set(emails.map(normalizeEmail))]);
}
