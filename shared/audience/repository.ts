import { keys, type Key, type Scope } from '../store/keys';
import { readMoving } from '../store/move';
import { badRequest } from '../platform/errors';
import { decodeCursor } from '../store/expressions';
import { afterBound, decodeShardCursor, encodeShardCursor, mergedPage, mergeShards, queryRead } from '../store/shards';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { CONTACT, CONTACT_EMAIL, SUPPRESSED, type ContactRecord, type ContactStatus, type SuppressionRecord } from './records';
import { encodeRow, factRow } from './facts';
import { decodeWalkCursor, isWalkCursor, walkSubscribed } from './subscribed-walk';

// Layout for hundreds of thousands of contacts per account and mode (no request reads a whole
// partition; every list is one page of one query):
// - contact:        PK=<scope>#CONTACT#<shard(contactId)>, SK=<contactId>  (the list merges the
//                   16 write shards newest first, store/shards.ts)
// - by status:      GSI1 <scope>#CONTACTS_BY_STATUS#<status>#<shard(contactId)>, sort <contactId>
// - by email:       GSI2 <scope>#CONTACTS_BY_EMAIL#all#<shard(contactId)>, sort <email>  (`q` is an
//                   email prefix); both indexes are write-sharded like the table: a query reads
//                   every shard and the unsharded partition earlier releases wrote, merged by sort key
// - email → id:     PK=<scope>#U#CONTACT_EMAIL#<shard(email)>, SK=<email>  (one contact per email;
//                   an exact lookup reads one shard)
// Releases before write shards kept contacts in `<scope>#CONTACT` and email guards in
// `<scope>#U#CONTACT_EMAIL`: lists read that partition as one more shard, and a read by id or email
// moves what it finds there to its shard (store/move.ts), so every write by key that follows finds it.
// - tag membership: PK=<scope>#TAG#<tag>#CONTACT, SK=<contactId>  (one item per tag carried)
// - suppression:    PK=<scope>#U#SUPPRESSED, SK=<email>
// - facts snapshot: PK=<scope>#CONTACT_FACTS, SK=HEAD (generation, chunk count, startedAt) and
//                   SK=G#<generation>#<n> (gzipped columnar chunks, <= 390 KB each; facts/chunks.ts packTable)
// - facts deltas:   PK=<scope>#CONTACT_FACTS_DELTA#<shard 0..15>, SK=<at>#<contactId>#<r|x|o|c>
//                   one per contact change, written in the change's transaction (TTL 8 days)

export const contactKey = (scope: Scope, id: string) => keys.sharded(scope, CONTACT, id);
export const emailKey = (scope: Scope, email: string) => keys.sharded(scope, `U#${CONTACT_EMAIL}`, email);
export const contactKeyBefore = (scope: Scope, id: string) => keys.entity(scope, CONTACT, id);
export const emailKeyBefore = (scope: Scope, email: string) => keys.unique(scope, CONTACT_EMAIL, email);
/** The partitions the contact list merges: every write shard, then the partition before sharding. */
const contactPartitions = (scope: Scope) => [...keys.shards(scope, CONTACT), keys.collection(scope, CONTACT)];
const tagKey = (scope: Scope, tag: string, contactId: string) => keys.child(scope, 'TAG', tag, CONTACT, contactId);
const suppressionKey = (scope: Scope, email: string) => keys.unique(scope, SUPPRESSED, email);

const BY_STATUS = 'CONTACTS_BY_STATUS';
const BY_EMAIL = 'CONTACTS_BY_EMAIL';
const statusIndex = (scope: Scope, contact: ContactRecord) => keys.shardedIndexed('GSI1', scope, BY_STATUS, contact.status, contact._id, contact._id);
const emailIndex = (scope: Scope, contact: ContactRecord) => keys.shardedIndexed('GSI2', scope, BY_EMAIL, 'all', contact.email, contact._id);
/** The index partitions a status query merges: the write shards, then the partition before sharding (last). */
export const statusPartitions = (scope: Scope, status: ContactStatus) => [
  ...keys.indexShards('GSI1', scope, BY_STATUS, status),
  keys.indexPartition('GSI1', scope, BY_STATUS, status),
];
const emailPartitions = (scope: Scope) => [...keys.indexShards('GSI2', scope, BY_EMAIL, 'all'), keys.indexPartition('GSI2', scope, BY_EMAIL, 'all')];
/** Above every character an email holds, so `[q, q + TOP]` is the range of emails starting with q. */
const TOP = '\u{10ffff}';

const FACTS = 'CONTACT_FACTS';
/**
 * 16 (4, then 8 in earlier releases): a launch wrote 1.2 units per checkout to each of 4, and up to
 * 0.88 to the fullest of 8, the hottest partition of the launch bench once everything else was
 * sharded. Readers walk shards 0..DELTA_SHARDS-1, which include those earlier releases wrote, and
 * sort deltas by key, so a contact whose deltas change shard keeps their order.
 */
export const DELTA_SHARDS = 16;
/** Deltas outlive several missed nightly rebuilds, then expire (the snapshot holds their effect). */
const DELTA_TTL_SECONDS = 8 * 24 * 3600;
const shardOf = (contactId: string) => {
  let h = 0;
  for (let i = 0; i < contactId.length; i++) h = (h * 31 + contactId.charCodeAt(i)) >>> 0;
  return h % DELTA_SHARDS;
};
export const deltaPartition = (scope: Scope, shard: number) => keys.collection(scope, `${FACTS}_DELTA#${shard}`);
export const headKey = (scope: Scope) => keys.entity(scope, FACTS, 'HEAD');
export const chunkKey = (scope: Scope, generation: string, n: number) => keys.entity(scope, FACTS, `G#${generation}#${String(n).padStart(5, '0')}`);

export type DeltaKind = 'r' | 'x' | 'o' | 'c' | 't';
export function deltaItem(scope: Scope, contactId: string, at: string, kind: DeltaKind, body: Record<string, unknown>) {
  return {
    PK: deltaPartition(scope, shardOf(contactId)),
    SK: `${at}#${contactId}#${kind}`,
    entity: 'ContactFactDelta',
    v: 1,
    ...body,
    expiresAt: Math.floor(Date.parse(at) / 1000) + DELTA_TTL_SECONDS,
  };
}
// `was`: the contact just before the change ('' when created), what moves a saved segment's stored count (segments/counts.ts).
const rowDelta = (scope: Scope, contact: ContactRecord, before: ContactRecord | null): TransactOp => ({
  put: deltaItem(scope, contact._id, contact.updatedAt, 'r', { row: encodeRow(factRow(contact)), was: before ? encodeRow(factRow(before)) : '' }),
});

const contactItem = (scope: Scope, contact: ContactRecord) =>
  toItem(contactKey(scope, contact._id), 'Contact', contact, { indexes: [statusIndex(scope, contact), emailIndex(scope, contact)] });

export async function getContact(store: Store, scope: Scope, id: string): Promise<ContactRecord | undefined> {
  return toRecord<ContactRecord>(await readMoving(store, contactKey(scope, id), contactKeyBefore(scope, id)));
}

export async function findContactId(store: Store, scope: Scope, email: string, consistent = false): Promise<string | undefined> {
  const item = await store.get<{ contactId: string }>(emailKey(scope, email), { consistent });
  if (item) return item.contactId;
  // A guard of the layout before shards moves to its shard, where the create conditions look.
  return ((await readMoving(store, emailKey(scope, email), emailKeyBefore(scope, email))) as { contactId?: string } | undefined)?.contactId;
}

/** Many contacts by id (one batched read, then one for those an earlier release wrote, without moving them). */
export async function getContacts(store: Store, scope: Scope, ids: string[]): Promise<ContactRecord[]> {
  const items = await store.batchGet(ids.map((id) => contactKey(scope, id)));
  const byId = new Map(items.map((item) => [item.SK as string, toRecord<ContactRecord>(item)!]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length)
    for (const item of await store.batchGet(missing.map((id) => contactKeyBefore(scope, id)))) byId.set(item.SK as string, toRecord<ContactRecord>(item)!);
  return ids.map((id) => byId.get(id)).filter((c): c is ContactRecord => Boolean(c));
}

export const tagOps = (scope: Scope, contact: ContactRecord, before: string[]): TransactOp[] => [
  ...contact.tags
    .filter((t) => !before.includes(t))
    .map((tag): TransactOp => ({ put: toItem(tagKey(scope, tag, contact._id), 'ContactTag', { tag, contactId: contact._id }) })),
  ...before.filter((t) => !contact.tags.includes(t)).map((tag): TransactOp => ({ delete: tagKey(scope, tag, contact._id) })),
];

/** Writes handed to the service, to go in one transaction with the event or marker they cause. */
export const contactWrites = {
  // The guard's condition covers this layout; a guard of the layout before shards is found (and
  // moved here) by the lookup every create path makes first (findContactId, contactIdsByEmail).
  create: (scope: Scope, contact: ContactRecord): TransactOp[] => [
    { put: toItem(emailKey(scope, contact.email), 'ContactEmail', { contactId: contact._id }), condition: 'attribute_not_exists(PK)' },
    { put: contactItem(scope, contact), condition: 'attribute_not_exists(PK)' },
    ...tagOps(scope, contact, []),
    rowDelta(scope, contact, null),
  ],
  /** Replaces the contact only if nobody changed it since it was read (`updatedAt` is the version). */
  replace: (scope: Scope, contact: ContactRecord, before: ContactRecord): TransactOp[] => [
    {
      put: contactItem(scope, contact),
      condition: 'attribute_exists(PK) AND #updatedAt = :readUpdatedAt',
      names: { '#updatedAt': 'updatedAt' },
      values: { ':readUpdatedAt': before.updatedAt },
    },
    ...tagOps(scope, contact, before.tags),
    rowDelta(scope, contact, before),
  ],
  remove: (scope: Scope, contact: ContactRecord, at: string): TransactOp[] => [
    { delete: contactKey(scope, contact._id), condition: 'attribute_exists(PK)' },
    { delete: emailKey(scope, contact.email) },
    // A guard an earlier release wrote and no read has moved yet.
    { delete: emailKeyBefore(scope, contact.email) },
    ...contact.tags.map((tag): TransactOp => ({ delete: tagKey(scope, tag, contact._id) })),
    { put: deltaItem(scope, contact._id, at, 'x', { was: encodeRow(factRow(contact)) }) },
  ],
};

/** Engagement timestamps: no version bump (they race with nothing that matters); the facts delta goes in the same transaction. */
export async function touchEngagement(store: Store, scope: Scope, id: string, field: 'lastOpenAt' | 'lastClickAt', at: string): Promise<void> {
  const touch = (key: Key) =>
    store.transact([
      { update: key, set: { [field]: at }, condition: 'attribute_exists(PK)' },
      { put: deltaItem(scope, id, at, field === 'lastOpenAt' ? 'o' : 'c', { at }) },
    ]);
  const missed = (error: Error) => {
    if (error.name !== 'ConditionFailed') throw error;
  };
  // A contact an earlier release wrote and no read has moved yet is touched where it is.
  await touch(contactKey(scope, id)).catch((error: Error) => {
    missed(error);
    return touch(contactKeyBefore(scope, id)).catch(missed);
  });
}

export interface ContactPage {
  contacts: ContactRecord[];
  cursor?: string;
}

/** One page of contacts for the list endpoint: one query on the path that serves the filter. */
export async function listContactPage(
  store: Store,
  scope: Scope,
  filter: { status?: ContactStatus; tag?: string; q?: string },
  page: { limit: number; cursor?: string },
): Promise<ContactPage> {
  if (filter.tag) {
    const ids = await store.query<{ contactId: string }>({ pk: keys.children(scope, 'TAG', filter.tag, CONTACT), limit: page.limit, cursor: page.cursor });
    const contacts = (
      await getContacts(
        store,
        scope,
        ids.items.map((i) => i.contactId),
      )
    ).filter((c) => (!filter.status || c.status === filter.status) && (!filter.q || c.email.startsWith(filter.q)));
    return { contacts, cursor: ids.cursor };
  }
  if (filter.q) {
    // Emails starting with q, ascending, merged by email (unique: one contact per email).
    const q = filter.q;
    const partitions = emailPartitions(scope);
    const merged = await mergedPage(scope, {
      list: `contacts:email:${q}`,
      shards: partitions.length,
      limit: page.limit,
      cursor: page.cursor,
      ascending: true,
      sortKey: (contact: ContactRecord) => contact.email,
      read: queryRead(
        async (shard, after, limit) => {
          const found = await store.query({
            ...partitions[shard]!,
            limit,
            ascending: true,
            ...(after === undefined ? { beginsWith: q } : { between: [after, q + TOP] }),
          });
          // BETWEEN is inclusive: the contact at the position reached was answered before (a read takes at least 2).
          return { items: found.items.map((i) => toRecord<ContactRecord>(i)!).filter((c) => c.email !== after), cursor: found.cursor };
        },
        (contact) => contact.email,
        filter.status ? (contact) => contact.status === filter.status : undefined,
      ),
    });
    return { contacts: merged.items, cursor: merged.nextCursor ?? undefined };
  }
  if (filter.status) {
    const partitions = statusPartitions(scope, filter.status);
    const merged = await mergedPage(scope, {
      list: `contacts:${filter.status}`,
      shards: partitions.length,
      limit: page.limit,
      cursor: page.cursor,
      sortKey: (contact: ContactRecord) => contact._id,
      read: queryRead(
        async (shard, after, limit) => {
          const found = await store.query({ ...partitions[shard]!, limit, ...afterBound(after) });
          return { items: found.items.map((i) => toRecord<ContactRecord>(i)!), cursor: found.cursor };
        },
        (contact) => contact._id,
      ),
    });
    return { contacts: merged.items, cursor: merged.nextCursor ?? undefined };
  }
  // Newest first across the write shards and the partition before them; the cursor is the last id.
  const partitions = contactPartitions(scope);
  const merged = await mergeShards<Record<string, unknown>>({
    shards: partitions.length,
    limit: page.limit,
    after: decodeShardCursor(scope, page.cursor),
    sortKey: (item) => String(item.SK),
    read: async (shard, after, limit) => {
      const found = await store.query<Record<string, unknown>>({ pk: partitions[shard]!, limit, ...(after === undefined ? {} : { before: after }) });
      return { items: found.items, last: found.cursor !== undefined && found.items.length ? String(found.items[found.items.length - 1]!.SK) : undefined };
    },
  });
  return { contacts: merged.items.map((i) => toRecord<ContactRecord>(i)!), cursor: encodeShardCursor(scope, merged.last) };
}

/**
 * The contact id an audience cursor continues after: a merged cursor (shards.ts), or the store
 * cursor of the unsharded status index that a send stored before this release (its last key
 * names the contact id), so a send in flight across the upgrade goes on from the same contact.
 */
/** Audience cursors (a send's, stored on the post) name their own list. */
const AUDIENCE_LIST = 'audience';
function subscribedAfter(scope: Scope, cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor.startsWith('s1.')) return decodeShardCursor(scope, cursor, AUDIENCE_LIST);
  const before = keys.indexPartition('GSI1', scope, BY_STATUS, 'subscribed');
  const key = decodeCursor(cursor, 'GSI1PK', before.pk);
  if (typeof key.GSI1SK !== 'string') throw badRequest('Invalid cursor', { field: 'cursor' });
  return key.GSI1SK;
}

/**
 * One page of an audience in a stable order, so a send resumes from its cursor: subscribed
 * contacts (GSI1, shard by shard, or oldest first while the partition before sharding holds any),
 * or the carriers of a tag (filtered to subscribed), oldest first.
 */
export async function audiencePage(store: Store, scope: Scope, audience: { tag?: string }, page: { limit: number; cursor?: string }): Promise<ContactPage> {
  if (audience.tag) {
    const ids = await store.query<{ contactId: string }>({
      pk: keys.children(scope, 'TAG', audience.tag, CONTACT),
      ascending: true,
      limit: page.limit,
      cursor: page.cursor,
    });
    const contacts = (
      await getContacts(
        store,
        scope,
        ids.items.map((i) => i.contactId),
      )
    ).filter((c) => c.status === 'subscribed');
    return { contacts, cursor: ids.cursor };
  }
  const partitions = statusPartitions(scope, 'subscribed');
  const shards = partitions.slice(0, -1);
  if (isWalkCursor(page.cursor)) return walkSubscribed(store, scope, shards, page.limit, decodeWalkCursor(scope, page.cursor, shards.length));
  // A send's first page: shard by shard (subscribed-walk.ts), unless the partition written before
  // sharding still holds subscribed contacts, which move to their shards when written.
  if (page.cursor === undefined && !(await store.query({ ...partitions[partitions.length - 1]!, limit: 1 })).items.length)
    return walkSubscribed(store, scope, shards, page.limit, { shard: 0 });
  // Oldest first by contact id across the status index's shards; the stored cursor is the last id.
  const merged = await mergeShards({
    shards: partitions.length,
    limit: page.limit,
    after: subscribedAfter(scope, page.cursor),
    ascending: true,
    sortKey: (contact: ContactRecord) => contact._id,
    read: queryRead(
      async (shard, after, limit) => {
        const found = await store.query({ ...partitions[shard]!, limit, ascending: true, ...afterBound(after, true) });
        return { items: found.items.map((i) => toRecord<ContactRecord>(i)!), cursor: found.cursor };
      },
      (contact) => contact._id,
    ),
  });
  return { contacts: merged.items, cursor: encodeShardCursor(scope, merged.last, AUDIENCE_LIST) };
}

// ---- suppression list ----

export const suppressionWrite = (scope: Scope, record: SuppressionRecord): TransactOp => ({
  put: toItem(suppressionKey(scope, record.email), 'Suppression', record),
});

export async function getSuppression(store: Store, scope: Scope, email: string): Promise<SuppressionRecord | undefined> {
  return toRecord<SuppressionRecord>(await store.get(suppressionKey(scope, email)));
}

/**
 * Of a list of addresses, those on the suppression list. For a batch's worth (a send's page, an
 * import's batch) the list is read whole when it holds fewer entries than there are addresses: one
 * Query, which for an account that has had no bounce or complaint reads nothing. Otherwise, and
 * for a few addresses, each is looked up (BatchGetItem, 100 keys a call; on DynamoDB Local ~0.12 ms
 * of CPU each, the largest part of a newsletter batch's reads before this).
 */
export async function suppressedAmong(store: Store, scope: Scope, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  if (emails.length >= LIST_FIRST_FROM) {
    const list = await store.query<{ SK: string }>({ pk: suppressionKey(scope, '').PK, limit: emails.length });
    if (!list.cursor) {
      const listed = new Set(list.items.map((item) => item.SK));
      return new Set(emails.filter((email) => listed.has(email)));
    }
  }
  const items = await store.batchGet(emails.map((email) => suppressionKey(scope, email)));
  return new Set(items.map((item) => item.SK as string));
}
const LIST_FIRST_FROM = 20;

export const processedMarker = (consumer: string, eventId: string, created: number): TransactOp => ({
  put: toItem(keys.processed(consumer, eventId), 'ProcessedEvent', { eventId }, { expiresAt: created + 7 * 24 * 3600 }),
  condition: 'attribute_not_exists(PK)',
});

export const markerKey = (consumer: string, eventId: string): Key => keys.processed(consumer, eventId);
