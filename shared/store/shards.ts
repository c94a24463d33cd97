/**
 * Write shards of a tenant's hot collections (outbox, checkouts, webhook deliveries and attempts,
 * sandbox notifications).
 *
 * A DynamoDB partition takes about 1,000 write units a second. One account's launch writes several
 * units per checkout to each of these collections, so with one partition per collection the
 * account throttles near 125 checkouts a second. Each record now goes to one of WRITE_SHARDS
 * partitions (`<scope>#<TYPE>#<n>`), n derived from its id (or from the id it is grouped by), so a
 * record's key stays a function of what the caller already knows: a get needs no fan-out.
 *
 * A list reads every shard in parallel and merges them in sort-key order (ids are time-ordered, so
 * that is time order). The cursor is the last sort key answered: every shard sorts by the same
 * unique ids, so "after this key" means the same thing in each, and in the partition of the layout
 * before sharding, which lists read as one more shard while it still holds records.
 */
import { createHash } from 'node:crypto';
import { badRequest } from '../platform/errors';

/**
 * 16: at the launch bench's 8 outbox units per checkout, the fullest of 16 shards takes well under
 * one unit per checkout (the goal of 1,000 checkouts a second per account), and a list page costs
 * 16 small queries, read in parallel.
 */
export const WRITE_SHARDS = 16;

/** The shard of an id: FNV-1a over its text, so it is the same in every process and release. */
export function shardOf(id: string, count = WRITE_SHARDS): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % count;
}

/** Every shard number, for the queries of a list. */
export const allShards = (count = WRITE_SHARDS): number[] => Array.from({ length: count }, (_, i) => i);

/**
 * One shard's read of up to `limit` items strictly after `after` (in the list's order): the items
 * it keeps (a read may drop some, a filter applied in memory), and `last`, the sort key it read up
 * to when the shard may hold more (undefined when the shard is exhausted).
 */
export type ShardRead<T> = (shard: number, after: string | undefined, limit: number) => Promise<{ items: T[]; last?: string }>;

/** Reads per page before a page answers short (with a cursor where it stopped). */
const MAX_ROUNDS = 8;

/**
 * One page of at most `limit` items merged from `shards` partitions sorted by the same unique sort
 * key (`sortKey(item)`), descending unless `ascending`, continuing strictly after `after`.
 *
 * A lazy k-way merge: each shard is read a slice at a time (about twice its share of the page);
 * a merged item is final only when no shard that may still hold more has stopped before it, so
 * the rounds after the first read again only the shards that hold the page back. After MAX_ROUNDS
 * the page may be short. The answer's `last` is the sort key to continue after (undefined when
 * every shard is exhausted).
 */
export async function mergeShards<T>(options: {
  shards: number;
  read: ShardRead<T>;
  sortKey: (item: T) => string;
  limit: number;
  after?: string;
  ascending?: boolean;
}): Promise<{ items: T[]; last?: string }> {
  const { shards, read, sortKey, limit } = options;
  const precedes = (a: string, b: string) => (options.ascending ? a < b : a > b);
  const slice = Math.max(2, Math.ceil((2 * limit) / shards) + 1);
  const state = Array.from({ length: shards }, () => ({ items: [] as T[], position: options.after as string | undefined, open: true }));
  const fetch = async (shard: number) => {
    const s = state[shard]!;
    const page = await read(shard, s.position, slice);
    s.items.push(...page.items);
    s.open = page.last !== undefined;
    if (page.last !== undefined) s.position = page.last;
  };
  await Promise.all(state.map((_, shard) => fetch(shard)));
  for (let round = 1; ; round++) {
    // The least advanced open shard bounds what is final: whatever it still holds comes after its position.
    const open = state.map((s, shard) => ({ ...s, shard })).filter((s) => s.open);
    const bound = open.reduce<string | undefined>((worst, s) => (worst === undefined || precedes(s.position!, worst) ? s.position : worst), undefined);
    const merged = state
      .flatMap((s) => s.items)
      .sort((a, b) => (precedes(sortKey(a), sortKey(b)) ? -1 : 1))
      .filter((item) => bound === undefined || !precedes(bound, sortKey(item)));
    if (merged.length >= limit || bound === undefined || round >= MAX_ROUNDS) {
      const items = merged.slice(0, limit);
      const more = merged.length > limit || bound !== undefined;
      const last = items.length === limit || bound === undefined ? (items.length ? sortKey(items[items.length - 1]!) : undefined) : bound;
      return { items, last: more ? last : undefined };
    }
    await Promise.all(open.filter((s) => s.position === bound).map((s) => fetch(s.shard)));
  }
}

/** A store query's bound for "strictly after `after`" in a list's order. */
export const afterBound = (after: string | undefined, ascending = false): { after?: string; before?: string } =>
  after === undefined ? {} : ascending ? { after } : { before: after };

/**
 * A ShardRead over one store query per shard: `query` reads up to `limit` items of the shard after
 * `after`; the read keeps what `keep` accepts (a filter applied in memory, so each read stays one
 * bounded query) and reports the sort key of the last item read while the shard may hold more.
 */
export function queryRead<T>(
  query: (shard: number, after: string | undefined, limit: number) => Promise<{ items: T[]; cursor?: string }>,
  sortKey: (item: T) => string,
  keep?: (item: T) => boolean,
): ShardRead<T> {
  return async (shard, after, limit) => {
    const found = await query(shard, after, limit);
    const last = found.cursor !== undefined && found.items.length ? sortKey(found.items[found.items.length - 1]!) : undefined;
    return { items: keep ? found.items.filter(keep) : found.items, last };
  };
}

const CURSOR_PREFIX = 's1.';
/** A tenant (keys.ts `Scope`; named here so keys.ts, which imports this module, is not imported back). */
type Scope = { accountId: string; mode: string };

/**
 * The tenant a cursor was made for. A cursor only names a sort key, and a list only ever reads the
 * caller's own partitions, so another tenant's cursor could open nothing; it is refused all the
 * same (a 400, as the store's cursors are), so a cursor never silently changes meaning.
 */
const scopeTag = (scope: Scope, list?: string) =>
  createHash('sha256')
    .update(`${scope.accountId}#${scope.mode}${list === undefined ? '' : `#${list}`}`)
    .digest('base64url')
    .slice(0, 10);

/**
 * The cursor of a merged list: its last sort key, bound to the tenant (and to `list`, when lists
 * of one tenant sort by the same keys: orders' cursor means nothing to customers), opaque to clients.
 */
export const encodeShardCursor = (scope: Scope, last: string | undefined, list?: string): string | undefined =>
  last === undefined ? undefined : CURSOR_PREFIX + Buffer.from(`${scopeTag(scope, list)}.${last}`, 'utf8').toString('base64url');

/** The sort key a cursor continues after; a cursor this list did not make for this tenant is a 400. */
export function decodeShardCursor(scope: Scope, cursor: string | undefined, list?: string): string | undefined {
  if (cursor === undefined) return undefined;
  const text = cursor.startsWith(CURSOR_PREFIX) ? Buffer.from(cursor.slice(CURSOR_PREFIX.length), 'base64url').toString('utf8') : '';
  const tag = `${scopeTag(scope, list)}.`;
  const last = text.startsWith(tag) ? text.slice(tag.length) : '';
  if (!last || last.length > 500 || encodeShardCursor(scope, last, list) !== cursor)
    throw badRequest('cursor is not valid for this list', { field: 'cursor', code: 'INVALID_CURSOR' });
  return last;
}

/** One page of a merged list with the tenant-bound cursor in and out (`nextCursor` null on the last page). */
export async function mergedPage<T>(
  scope: Scope,
  options: { list: string; shards: number; read: ShardRead<T>; sortKey: (item: T) => string; limit: number; cursor?: string; ascending?: boolean },
): Promise<{ items: T[]; nextCursor: string | null }> {
  const { cursor, list, ...merge } = options;
  const page = await mergeShards({ ...merge, after: decodeShardCursor(scope, cursor, list) });
  return { items: page.items, nextCursor: encodeShardCursor(scope, page.last, list) ?? null };
}
