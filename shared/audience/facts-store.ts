import type { Scope } from '../store/keys';
import { toRecord, type Store } from '../store/store';
import type { ContactRecord } from './records';
import { factRow, decodeRow, decodeWas, type ContactFactRow, type StampedDelta } from './facts';
import { DELTA_SHARDS, type DeltaKind, chunkKey, deltaPartition, headKey, statusPartitions } from './repository';
import { mergeShards, queryRead } from '../store/shards';

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
  /** When the rebuild had read everything it wrote (no write stamped after this is in the snapshot); absent before stored segment counts. */
  finishedAt?: string;
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
    await store.put(
      { ...headKey(scope), entity: 'ContactFactsHead', v: 1, ...head },
      { condition: 'attribute_not_exists(PK) OR startedAt <= :s', values: { ':s': head.startedAt } },
    );
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
  const shards = await Promise.all(
    Array.from({ length: DELTA_SHARDS }, (_, shard) => store.query({ pk: deltaPartition(scope, shard), after: since, ascending: true, limit: 1 })),
  );
  return shards.some((page) => page.items.length > 0);
}

/**
 * The deltas written after `since`, in write order, reading at most `max` (the shards in
 * parallel). `more` says the bound was reached and the list is cut short.
 */
type DeltaItem = { SK: string; row?: string; at?: string; rows?: string; was?: string };

export async function factDeltasSince(store: Store, scope: Scope, since: string, max: number): Promise<{ deltas: StampedDelta[]; more: boolean }> {
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
  const deltas: StampedDelta[] = [];
  for (const item of all) {
    const [stamp, id, kind] = item.SK.split('#') as [string, string, DeltaKind];
    if (kind === 'r') deltas.push({ kind: 'row', row: decodeRow(item.row!), was: decodeWas(item.was), stamp });
    else if (kind === 'x') deltas.push({ kind: 'gone', id, was: decodeWas(item.was), stamp });
    else if (kind === 't')
      for (const [contactId, tags, smartTags] of JSON.parse(item.rows!) as [string, string[], string[]][])
        deltas.push({ kind: 'tags', id: contactId, tags, smartTags, stamp });
    else deltas.push({ kind: kind === 'o' ? 'open' : 'click', id, at: item.at!, stamp });
  }
  if (deltas.length > max) more = true;
  return { deltas, more };
}

/**
 * Every subscribed contact's id range split in `parts` ranges of the id space (ids are ordered),
 * so a rebuild reads them in parallel; empty when there is no subscribed contact. The lowest and
 * highest id of the status index's write shards (and of its partition before sharding).
 */
/** Every contact id (ids are printable ASCII, none starting with `~`): a small scope's full read as one range, with no query for its ends. */
export const WHOLE_ID_RANGE: [string, string] = ['!', '~'];

export async function subscribedIdRanges(store: Store, scope: Scope, parts: number): Promise<[string, string][]> {
  const ends = await Promise.all(
    statusPartitions(scope, 'subscribed').flatMap((partition) =>
      [true, false].map(async (ascending) => (await store.query<{ GSI1SK: string }>({ ...partition, ascending, limit: 1 })).items[0]?.GSI1SK),
    ),
  );
  const ids = ends.filter((id): id is string => id !== undefined).sort();
  if (!ids.length) return [];
  return splitIdRange(ids[0]!, ids[ids.length - 1]!, parts);
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

/**
 * One page of subscribed contacts of an id range, oldest first, as fact rows (the rebuild's read):
 * the status index's shards merged by id; `cursor` is the last id answered.
 */
export async function subscribedFactsPage(
  store: Store,
  scope: Scope,
  range: [string, string],
  cursor: string | undefined,
): Promise<{ rows: ContactFactRow[]; contacts: ContactRecord[]; cursor?: string }> {
  const partitions = statusPartitions(scope, 'subscribed');
  const page = await mergeShards({
    shards: partitions.length,
    limit: 2000,
    after: cursor,
    ascending: true,
    sortKey: (contact: ContactRecord) => contact._id,
    read: queryRead(
      async (shard, after, limit) => {
        if (after !== undefined && after >= range[1]) return { items: [] };
        const found = await store.query({ ...partitions[shard]!, between: [after ?? range[0], range[1]], ascending: true, limit });
        // BETWEEN is inclusive: the contact at the position reached was answered before (a read takes at least 2).
        return { items: found.items.map((i) => toRecord<ContactRecord>(i)!).filter((c) => c._id !== after), cursor: found.cursor };
      },
      (contact) => contact._id,
    ),
  });
  return { rows: page.items.map(factRow), contacts: page.items, cursor: page.last };
}
