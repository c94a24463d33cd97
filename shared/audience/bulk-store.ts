import type { Scope } from '../store/keys';
import { toItem } from '../store/items';
import type { BatchWriteRequest, Store, TransactOp } from '../store/store';
import type { ContactRecord } from './records';
import { contactKey, contactKeyBefore, contactWrites, deltaItem, emailKey, emailKeyBefore, tagOps } from './repository';

/**
 * Bulk seeding and imports: the very items `contactWrites.create` writes (contact, email guard,
 * tag memberships, facts delta), in BatchWriteItem calls of 25, without the per-contact
 * transaction or its conditions. The caller guarantees new, distinct emails.
 */
export async function batchCreateContacts(store: Store, scope: Scope, contacts: ContactRecord[], concurrency = 8): Promise<void> {
  const items = contacts.flatMap((c) =>
    contactWrites
      .create(scope, c)
      .map((op) => ('put' in op ? op.put : undefined))
      .filter((i): i is NonNullable<typeof i> => Boolean(i)),
  );
  await batchWrite(
    store,
    items.map((Item) => ({ PutRequest: { Item } })),
    concurrency,
  );
}

type BatchRequest = BatchWriteRequest;

/**
 * The smart-tag path: many contacts' new tag lists, each written only if the contact was not
 * changed since it was read (`updatedAt` is the version), as conditional PartiQL UPDATEs sent 25
 * to a BatchExecuteStatement call (one statement per contact, no atomicity between them; a single
 * conditional put per contact cost one round trip each). Only `tags`, `smartTags` and `updatedAt`
 * change, so no index key moves. Answers per contact whether it was written. The tag items and the
 * facts delta follow through `batchWrite` (`contactTagWrites`, `tagDeltaItems`); a crash in between
 * leaves records carrying the change without their delta, and the next refresh (which sees them
 * unchanged in the facts, and the records already changed) writes those again.
 */
export async function updateContactTagsIfUnchanged(store: Store, scope: Scope, changes: { next: ContactRecord; before: ContactRecord }[]): Promise<boolean[]> {
  const statement = `UPDATE "${store.tableName}" SET "tags" = ? SET "smartTags" = ? SET "updatedAt" = ? WHERE "PK" = ? AND "SK" = ? AND "updatedAt" = ?`;
  const update = (list: typeof changes, keyOf: typeof contactKey) =>
    store.batchStatements(
      list.map(({ next, before }) => {
        const key = keyOf(scope, next._id);
        return { statement, parameters: [next.tags, next.smartTags, next.updatedAt, key.PK, key.SK, before.updatedAt] };
      }),
    );
  const applied = await update(changes, contactKey);
  // Contacts an earlier release wrote, that no read has moved to their write shard yet, change where they are.
  const missed = changes.map((_, i) => i).filter((i) => !applied[i]);
  if (missed.length) {
    const before = await update(
      missed.map((i) => changes[i]!),
      contactKeyBefore,
    );
    missed.forEach((i, n) => {
      applied[i] = before[n]!;
    });
  }
  return applied;
}

/** A contact's tag items against the tags it carried before, for `batchWrite`. */
export function contactTagWrites(scope: Scope, contact: ContactRecord, beforeTags: string[]): BatchRequest[] {
  return tagOps(scope, contact, beforeTags).map(
    (op): BatchRequest => ('put' in op ? { PutRequest: { Item: op.put } } : { DeleteRequest: { Key: (op as { delete: Record<string, unknown> }).delete } }),
  );
}

/** A tag delta item holds at most this much JSON (well under the 400 KB item limit). */
const TAG_DELTA_BYTES = 300_000;

/**
 * The facts deltas of many contacts' tag changes at one time `at`: one item (kind `t`) per group
 * of contacts, each row `[id, tags, smartTags]` (the lists the record now holds), instead of a
 * full-row delta per contact. Named after the group's first contact, so groups of one write differ.
 */
export function tagDeltaItems(scope: Scope, at: string, contacts: Pick<ContactRecord, '_id' | 'tags' | 'smartTags'>[]): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  let group: string[] = [];
  let first = '';
  let bytes = 0;
  const flush = () => {
    // `~` sorts after every id: a row delta stamped the same millisecond (the contact's creation, or
    // the write this change was conditional on) is older than the change and must apply first.
    if (group.length) items.push(deltaItem(scope, `~${first}`, at, 't', { rows: `[${group.join(',')}]` }));
    group = [];
    bytes = 0;
  };
  for (const c of contacts) {
    const row = JSON.stringify([c._id, c.tags, c.smartTags]);
    if (bytes + row.length > TAG_DELTA_BYTES) flush();
    if (!group.length) first = c._id;
    group.push(row);
    bytes += row.length + 1;
  }
  flush();
  return items;
}

/** BatchWriteItem in calls of 25, `concurrency` in flight, unprocessed items retried with backoff. */
export async function batchWrite(store: Store, requests: BatchRequest[], concurrency = 8): Promise<void> {
  await store.batchWrite(requests, concurrency);
}

/** email → contact id, for many addresses at once (BatchGetItem, 100 keys a call). */
export async function contactIdsByEmail(store: Store, scope: Scope, emails: string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map();
  const unique = [...new Set(emails)];
  const items = await store.batchGet<{ SK: string; contactId: string }>(unique.map((email) => emailKey(scope, email)));
  const found = new Map(items.map((item) => [item.SK, item.contactId]));
  // Guards an earlier release wrote (one partition per tenant), not moved to their shard yet.
  const missing = unique.filter((email) => !found.has(email));
  if (missing.length)
    for (const item of await store.batchGet<{ SK: string; contactId: string }>(missing.map((email) => emailKeyBefore(scope, email))))
      found.set(item.SK, item.contactId);
  return found;
}

/**
 * Email claims of many new contacts, each on its own: a PartiQL INSERT (which fails on a key that
 * exists, like a put on `attribute_not_exists(PK)`), 25 to a BatchExecuteStatement call, several
 * calls in flight. No atomicity between claims, and none is needed: each claim stands for its own
 * address. 1 WCU a claim (a transactional put costs 2), and no 100-item transaction limit.
 * Answers per claim whether it was made (false: the address was taken).
 */
export async function claimEmails(store: Store, scope: Scope, claims: { email: string; contactId: string }[]): Promise<boolean[]> {
  return store.batchStatements(
    claims.map(({ email, contactId }) => {
      const item = toItem(emailKey(scope, email), 'ContactEmail', { contactId });
      const names = Object.keys(item);
      return {
        statement: `INSERT INTO "${store.tableName}" VALUE {${names.map((name) => `'${name}': ?`).join(', ')}}`,
        parameters: names.map((name) => item[name]),
      };
    }),
  );
}

/** The email claim of a new contact alone: a conditional put, for a caller's transaction. */
export const emailClaim = (scope: Scope, email: string, contactId: string): TransactOp => ({
  put: toItem(emailKey(scope, email), 'ContactEmail', { contactId }),
  condition: 'attribute_not_exists(PK)',
});

/** Everything a create writes except the email claim (contact, tag memberships, facts delta), as plain items. */
export function contactBodyItems(scope: Scope, contact: ContactRecord) {
  const claim = emailKey(scope, contact.email);
  return contactWrites
    .create(scope, contact)
    .map((op) => ('put' in op ? op.put : undefined))
    .filter((item): item is NonNullable<typeof item> => Boolean(item) && !(item!.PK === claim.PK && item!.SK === claim.SK));
}
