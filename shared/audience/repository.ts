import { keys, type Key, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type BatchWriteRequest, type Store, type TransactOp } from '../store/store';
import { CONTACT, CONTACT_EMAIL, SUPPRESSED, type ContactRecord, type ContactStatus, type SuppressionRecord } from './records';
import { encodeRow, factRow, decodeRow, type ContactFactRow, type FactDelta } from './facts';

// Layout for hundreds of thousands of contacts per account and mode (no request reads a whole
// partition; every list is one page of one query):
// - contact:        PK=<scope>#CONTACT, SK=<contactId>  (newest first)
// - by status:      GSI1 <scope>#CONTACTS_BY_STATUS#<status>, sort <contactId>
// - by email:       GSI2 <scope>#CONTACTS_BY_EMAIL#all, sort <email>  (`q` is an email prefix)
// - email → id:     PK=<scope>#U#CONTACT_EMAIL, SK=<email>  (one contact per email)
// - tag membership: PK=<scope>#TAG#<tag>#CONTACT, SK=<contactId>  (one item per tag carried)
// - suppression:    PK=<scope>#U#SUPPRESSED, SK=<email>
// - facts snapshot: PK=<scope>#CONTACT_FACTS, SK=HEAD (generation, chunk count, startedAt) and
//                   SK=G#<generation>#<n> (gzipped columnar chunks, <= 390 KB each; facts/chunks.ts packTable)
// - facts deltas:   PK=<scope>#CONTACT_FACTS_DELTA#<shard 0..3>, SK=<at>#<contactId>#<r|x|o|c>
//                   one per contact change, written in the change's transaction (TTL 8 days)

const contactKey = (scope: Scope, id: string) => keys.entity(scope, CONTACT, id);
const emailKey = (scope: Scope, email: string) => keys.unique(scope, CONTACT_EMAIL, email);
const tagKey = (scope: Scope, tag: string, contactId: string) => keys.child(scope, 'TAG', tag, CONTACT, contactId);
const suppressionKey = (scope: Scope, email: string) => keys.unique(scope, SUPPRESSED, email);

const statusIndex = (scope: Scope, contact: ContactRecord) => keys.indexed('GSI1', scope, 'CONTACTS_BY_STATUS', contact.status, contact._id);
const emailIndex = (scope: Scope, contact: ContactRecord) => keys.indexed('GSI2', scope, 'CONTACTS_BY_EMAIL', 'all', contact.email);

const FACTS = 'CONTACT_FACTS';
export const DELTA_SHARDS = 4;
/** Deltas outlive several missed nightly rebuilds, then expire (the snapshot holds their effect). */
const DELTA_TTL_SECONDS = 8 * 24 * 3600;
const shardOf = (contactId: string) => {
  let h = 0;
  for (let i = 0; i < contactId.length; i++) h = (h * 31 + contactId.charCodeAt(i)) >>> 0;
  return h % DELTA_SHARDS;
};
const deltaPartition = (scope: Scope, shard: number) => keys.collection(scope, `${FACTS}_DELTA#${shard}`);
const headKey = (scope: Scope) => keys.entity(scope, FACTS, 'HEAD');
const chunkKey = (scope: Scope, generation: string, n: number) => keys.entity(scope, FACTS, `G#${generation}#${String(n).padStart(5, '0')}`);

type DeltaKind = 'r' | 'x' | 'o' | 'c' | 't';
function deltaItem(scope: Scope, contactId: string, at: string, kind: DeltaKind, body: Record<string, unknown>) {
  return {
    PK: deltaPartition(scope, shardOf(contactId)),
    SK: `${at}#${contactId}#${kind}`,
    entity: 'ContactFactDelta',
    v: 1,
    ...body,
    expiresAt: Math.floor(Date.parse(at) / 1000) + DELTA_TTL_SECONDS,
  };
}
const rowDelta = (scope: Scope, contact: ContactRecord): TransactOp => ({ put: deltaItem(scope, contact._id, contact.updatedAt, 'r', { row: encodeRow(factRow(contact)) }) });

const contactItem = (scope: Scope, contact: ContactRecord) => toItem(contactKey(scope, contact._id), 'Contact', contact, { indexes: [statusIndex(scope, contact), emailIndex(scope, contact)] });

export async function getContact(store: Store, scope: Scope, id: string): Promise<ContactRecord | undefined> {
  return toRecord<ContactRecord>(await store.get(contactKey(scope, id)));
}

export async function findContactId(store: Store, scope: Scope, email: string, consistent = false): Promise<string | undefined> {
  const item = await store.get<{ contactId: string }>(emailKey(scope, email), { consistent });
  return item?.contactId;
}

export async function getContacts(store: Store, scope: Scope, ids: string[]): Promise<ContactRecord[]> {
  const items = await store.batchGet(ids.map((id) => contactKey(scope, id)));
  const byId = new Map(items.map((item) => [item.SK as string, toRecord<ContactRecord>(item)!]));
  return ids.map((id) => byId.get(id)).filter((c): c is ContactRecord => Boolean(c));
}

const tagOps = (scope: Scope, contact: ContactRecord, before: string[]): TransactOp[] => [
  ...contact.tags.filter((t) => !before.includes(t)).map((tag): TransactOp => ({ put: toItem(tagKey(scope, tag, contact._id), 'ContactTag', { tag, contactId: contact._id }) })),
  ...before.filter((t) => !contact.tags.includes(t)).map((tag): TransactOp => ({ delete: tagKey(scope, tag, contact._id) })),
];

/** Writes handed to the service, to go in one transaction with the event or marker they cause. */
export const contactWrites = {
  create: (scope: Scope, contact: ContactRecord): TransactOp[] => [
    { put: toItem(emailKey(scope, contact.email), 'ContactEmail', { contactId: contact._id }), condition: 'attribute_not_exists(PK)' },
    { put: contactItem(scope, contact), condition: 'attribute_not_exists(PK)' },
    ...tagOps(scope, contact, []),
    rowDelta(scope, contact),
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
    rowDelta(scope, contact),
  ],
  remove: (scope: Scope, contact: ContactRecord, at: string): TransactOp[] => [
    { delete: contactKey(scope, contact._id), condition: 'attribute_exists(PK)' },
    { delete: emailKey(scope, contact.email) },
    ...contact.tags.map((tag): TransactOp => ({ delete: tagKey(scope, tag, contact._id) })),
    { put: deltaItem(scope, contact._id, at, 'x', {}) },
  ],
};

/** Engagement timestamps: no version bump (they race with nothing that matters); the facts delta goes in the same transaction. */
export async function touchEngagement(store: Store, scope: Scope, id: string, field: 'lastOpenAt' | 'lastClickAt', at: string): Promise<void> {
  await store
    .transact([
      { update: contactKey(scope, id), set: { [field]: at }, condition: 'attribute_exists(PK)' },
      { put: deltaItem(scope, id, at, field === 'lastOpenAt' ? 'o' : 'c', { at }) },
    ])
    .catch((error: Error) => {
      if (error.name !== 'ConditionFailed') throw error;
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
    const contacts = (await getContacts(store, scope, ids.items.map((i) => i.contactId))).filter(
      (c) => (!filter.status || c.status === filter.status) && (!filter.q || c.email.startsWith(filter.q)),
    );
    return { contacts, cursor: ids.cursor };
  }
  const statusFilter = filter.status ? { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': filter.status } } : undefined;
  if (filter.q) {
    const byEmail = keys.indexPartition('GSI2', scope, 'CONTACTS_BY_EMAIL', 'all');
    const result = await store.query({ index: byEmail.index, pk: byEmail.pk, beginsWith: filter.q, ascending: true, limit: page.limit, cursor: page.cursor, filter: statusFilter });
    return { contacts: result.items.map((i) => toRecord<ContactRecord>(i)!), cursor: result.cursor };
  }
  if (filter.status) {
    const byStatus = keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', filter.status);
    const result = await store.query({ index: byStatus.index, pk: byStatus.pk, limit: page.limit, cursor: page.cursor });
    return { contacts: result.items.map((i) => toRecord<ContactRecord>(i)!), cursor: result.cursor };
  }
  const result = await store.query({ pk: keys.collection(scope, CONTACT), limit: page.limit, cursor: page.cursor });
  return { contacts: result.items.map((i) => toRecord<ContactRecord>(i)!), cursor: result.cursor };
}

/**
 * One page of an audience, oldest first so a send walks a stable order and resumes from its
 * cursor: subscribed contacts (GSI1), or the carriers of a tag (filtered to subscribed).
 */
export async function audiencePage(store: Store, scope: Scope, audience: { tag?: string }, page: { limit: number; cursor?: string }): Promise<ContactPage> {
  if (audience.tag) {
    const ids = await store.query<{ contactId: string }>({ pk: keys.children(scope, 'TAG', audience.tag, CONTACT), ascending: true, limit: page.limit, cursor: page.cursor });
    const contacts = (await getContacts(store, scope, ids.items.map((i) => i.contactId))).filter((c) => c.status === 'subscribed');
    return { contacts, cursor: ids.cursor };
  }
  const byStatus = keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
  const result = await store.query({ index: byStatus.index, pk: byStatus.pk, ascending: true, limit: page.limit, cursor: page.cursor });
  return { contacts: result.items.map((i) => toRecord<ContactRecord>(i)!), cursor: result.cursor };
}

// ---- suppression list ----

export const suppressionWrite = (scope: Scope, record: SuppressionRecord): TransactOp => ({ put: toItem(suppressionKey(scope, record.email), 'Suppression', record) });

export async function getSuppression(store: Store, scope: Scope, email: string): Promise<SuppressionRecord | undefined> {
  return toRecord<SuppressionRecord>(await store.get(suppressionKey(scope, email)));
}

/** The addresses of `emails` on the suppression list (one batched read). */
export async function suppressedAmong(store: Store, scope: Scope, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const items = await store.batchGet(emails.map((email) => suppressionKey(scope, email)));
  return new Set(items.map((item) => item.SK as string));
}

export const processedMarker = (consumer: string, eventId: string, created: number): TransactOp => ({
  put: toItem(keys.processed(consumer, eventId), 'ProcessedEvent', { eventId }, { expiresAt: created + 7 * 24 * 3600 }),
  condition: 'attribute_not_exists(PK)',
});

export const markerKey = (consumer: string, eventId: string): Key => keys.processed(consumer, eventId);

// ---- contact facts: snapshot chunks and deltas (the layout segments evaluate over) ----

export interface FactsHead {
  generation: string;
  chunks: number;
  count: number;
  /** When the rebuild that wrote this snapshot started reading contacts (or the deltas it compacted). */
  startedAt: string;
  /** 'F3': columnar chunks, emails and names compressed apart (facts/chunks.ts `packTable`); 'F2': columnar, one gzip (before F3); absent: gzipped JSON lines. */
  format?: 'F2' | 'F3';
  /** When a rebuild last read the contacts themselves (compactions carry it over). */
  fullAt?: string;
}

export async function getFactsHead(store: Store, scope: Scope): Promise<FactsHead | undefined> {
  return store.get<FactsHead>(headKey(scope), { consistent: true });
}

/** Every chunk of one snapshot generation, read in parallel; undefined when one is gone (a newer rebuild removed it). */
export async function getFactsChunks(store: Store, scope: Scope, head: FactsHead): Promise<Uint8Array[] | undefined> {
  const items = await Promise.all(Array.from({ length: head.chunks }, (_, n) => store.get<{ data: Uint8Array }>(chunkKey(scope, head.generation, n))));
  return items.every(Boolean) ? items.map((i) => i!.data) : undefined;
}

export async function putFactsChunk(store: Store, scope: Scope, generation: string, n: number, data: Buffer): Promise<void> {
  await store.put({ ...chunkKey(scope, generation, n), entity: 'ContactFactsChunk', v: 1, data });
}

/** Switches readers to a new snapshot unless a rebuild that started later got there first. */
export async function putFactsHead(store: Store, scope: Scope, head: FactsHead): Promise<boolean> {
  try {
    await store.put({ ...headKey(scope), entity: 'ContactFactsHead', v: 1, ...head }, { condition: 'attribute_not_exists(PK) OR startedAt <= :s', values: { ':s': head.startedAt } });
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionFailed') return false;
    throw error;
  }
}

export async function deleteFactsChunks(store: Store, scope: Scope, head: FactsHead): Promise<void> {
  await Promise.all(Array.from({ length: head.chunks }, (_, n) => store.delete(chunkKey(scope, head.generation, n))));
}

/** Whether any delta was written after `since` (one item read per shard at most). */
export async function anyFactDeltaSince(store: Store, scope: Scope, since: string): Promise<boolean> {
  const shards = await Promise.all(Array.from({ length: DELTA_SHARDS }, (_, shard) => store.query({ pk: deltaPartition(scope, shard), after: since, ascending: true, limit: 1 })));
  return shards.some((page) => page.items.length > 0);
}

/**
 * The deltas written after `since`, in write order, reading at most `max` (the four shards in
 * parallel). `more` says the bound was reached and the list is cut short.
 */
type DeltaItem = { SK: string; row?: string; at?: string; rows?: string };

export async function factDeltasSince(store: Store, scope: Scope, since: string, max: number): Promise<{ deltas: FactDelta[]; more: boolean }> {
  let more = false;
  const shards = await Promise.all(
    Array.from({ length: DELTA_SHARDS }, async (_, shard) => {
      const items: DeltaItem[] = [];
      let weight = 0;
      let cursor: string | undefined;
      do {
        const page = await store.query<DeltaItem>({ pk: deltaPartition(scope, shard), after: since, ascending: true, limit: 5000, cursor });
        items.push(...page.items);
        // A tag delta counts as many deltas as it holds contacts (roughly: by its length).
        for (const item of page.items) weight += item.rows ? Math.ceil(item.rows.length / 60) : 1;
        cursor = page.cursor;
        if (weight > max / DELTA_SHARDS) {
          more = Boolean(cursor) || more;
          break;
        }
      } while (cursor);
      return items;
    }),
  );
  const all = shards.flat();
  all.sort((a, b) => (a.SK < b.SK ? -1 : a.SK > b.SK ? 1 : 0));
  const deltas: FactDelta[] = [];
  for (const item of all) {
    const [, id, kind] = item.SK.split('#') as [string, string, DeltaKind];
    if (kind === 'r') deltas.push({ kind: 'row', row: decodeRow(item.row!) });
    else if (kind === 'x') deltas.push({ kind: 'gone', id });
    else if (kind === 't') for (const [contactId, tags, smartTags] of JSON.parse(item.rows!) as [string, string[], string[]][]) deltas.push({ kind: 'tags', id: contactId, tags, smartTags });
    else deltas.push({ kind: kind === 'o' ? 'open' : 'click', id, at: item.at! });
  }
  if (deltas.length > max) more = true;
  return { deltas, more };
}

/**
 * Every subscribed contact's id range split in `parts` ranges of the id space (ids are ordered),
 * so a rebuild reads them in parallel; empty when there is no subscribed contact.
 */
export async function subscribedIdRanges(store: Store, scope: Scope, parts: number): Promise<[string, string][]> {
  const byStatus = keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
  const [first, last] = await Promise.all(
    [true, false].map(async (ascending) => (await store.query<{ GSI1SK: string }>({ index: byStatus.index, pk: byStatus.pk, ascending, limit: 1 })).items[0]?.GSI1SK),
  );
  if (!first || !last) return [];
  return splitIdRange(first, last, parts);
}

/** `first`..`last` (24-hex ids, inclusive) in at most `parts` ranges that together hold every id between them once. */
export function splitIdRange(first: string, last: string, parts: number): [string, string][] {
  if (!/^[0-9a-f]{24}$/.test(first) || !/^[0-9a-f]{24}$/.test(last) || parts < 2 || first === last) return [[first, last]];
  const lo = BigInt(`0x${first}`);
  const hi = BigInt(`0x${last}`);
  const step = (hi - lo) / BigInt(parts);
  const at = (i: number) => (i === 0 ? first : i === parts ? last : (lo + step * BigInt(i)).toString(16).padStart(24, '0'));
  // BETWEEN is inclusive: every range but the first starts just above the previous end (ids have 24 characters, so `<end>0` sorts above it and below any greater id).
  // Ids closer together than `parts` give equal bounds: such a range holds no id, and DynamoDB refuses a BETWEEN whose lower bound is above its upper one.
  return Array.from({ length: parts }, (_, i) => [i === 0 ? at(0) : `${at(i)}0`, at(i + 1)] as [string, string]).filter(([from, to]) => from <= to);
}

/** One page of subscribed contacts of an id range, oldest first, as fact rows (the rebuild's read). */
export async function subscribedFactsPage(store: Store, scope: Scope, range: [string, string], cursor: string | undefined): Promise<{ rows: ContactFactRow[]; contacts: ContactRecord[]; cursor?: string }> {
  const byStatus = keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
  const result = await store.query({ index: byStatus.index, pk: byStatus.pk, between: range, ascending: true, limit: 2000, cursor });
  const contacts = result.items.map((i) => toRecord<ContactRecord>(i)!);
  return { rows: contacts.map(factRow), contacts, cursor: result.cursor };
}

/**
 * Bulk seeding and imports: the very items `contactWrites.create` writes (contact, email guard,
 * tag memberships, facts delta), in BatchWriteItem calls of 25, without the per-contact
 * transaction or its conditions. The caller guarantees new, distinct emails.
 */
export async function batchCreateContacts(store: Store, scope: Scope, contacts: ContactRecord[], concurrency = 8): Promise<void> {
  const items = contacts.flatMap((c) => contactWrites.create(scope, c).map((op) => ('put' in op ? op.put : undefined)).filter((i): i is NonNullable<typeof i> => Boolean(i)));
  await batchWrite(store, items.map((Item) => ({ PutRequest: { Item } })), concurrency);
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
  return store.batchStatements(
    changes.map(({ next, before }) => {
      const key = contactKey(scope, next._id);
      return { statement, parameters: [next.tags, next.smartTags, next.updatedAt, key.PK, key.SK, before.updatedAt] };
    }),
  );
}

/** A contact's tag items against the tags it carried before, for `batchWrite`. */
export function contactTagWrites(scope: Scope, contact: ContactRecord, beforeTags: string[]): BatchRequest[] {
  return tagOps(scope, contact, beforeTags).map((op): BatchRequest => ('put' in op ? { PutRequest: { Item: op.put } } : { DeleteRequest: { Key: (op as { delete: Record<string, unknown> }).delete } }));
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
  const items = await store.batchGet<{ SK: string; contactId: string }>([...new Set(emails)].map((email) => emailKey(scope, email)));
  return new Map(items.map((item) => [item.SK, item.contactId]));
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
      return { statement: `INSERT INTO "${store.tableName}" VALUE {${names.map((name) => `'${name}': ?`).join(', ')}}`, parameters: names.map((name) => item[name]) };
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
