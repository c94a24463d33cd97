import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/store/keys';
import { afterBound, decodeShardCursor, encodeShardCursor, mergeShards, queryRead, shardOf, WRITE_SHARDS, type ShardRead } from '../../shared/store/shards';

/** Shards held in memory, each sorted like a DynamoDB partition, read the way the store reads them. */
function memoryShards(shards: string[][], options: { drop?: (id: string) => boolean; ascending?: boolean } = {}) {
  const reads: number[] = [];
  const read: ShardRead<string> = async (shard, after, limit) => {
    reads.push(shard);
    const sorted = [...shards[shard]!].sort((a, b) => (options.ascending ? (a < b ? -1 : 1) : a < b ? 1 : -1));
    const rest = sorted.filter((id) => after === undefined || (options.ascending ? id > after : id < after));
    const slice = rest.slice(0, limit);
    const more = rest.length > limit;
    return { items: slice.filter((id) => !options.drop?.(id)), last: more && slice.length ? slice[slice.length - 1] : undefined };
  };
  return { read, reads };
}

const id = (n: number) => n.toString(16).padStart(24, '0');

async function pageThrough(shards: string[][], limit: number, options: { drop?: (id: string) => boolean; ascending?: boolean } = {}) {
  const { read } = memoryShards(shards, options);
  const pages: string[][] = [];
  let after: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await mergeShards({ shards: shards.length, read, sortKey: (x) => x, limit, after, ascending: options.ascending });
    pages.push(page.items);
    if (page.last === undefined) break;
    after = page.last;
  }
  return pages;
}

describe('write shards', () => {
  it('a given id always lands on the same shard, and ids spread over every shard', () => {
    expect(shardOf('65f000000000000000000001')).toBe(shardOf('65f000000000000000000001'));
    const counts = new Array(WRITE_SHARDS).fill(0);
    // Object ids of one process: seconds, fixed process bytes, a counter.
    for (let n = 0; n < 1600; n++) counts[shardOf(`65f0${(n >> 4).toString(16).padStart(4, '0')}a1b2c3d4e5${(0x10000 + n).toString(16).padStart(6, '0')}`)]++;
    expect(Math.min(...counts)).toBeGreaterThan(60);
    expect(Math.max(...counts)).toBeLessThan(140);
  });

  it('keys of a shard stay inside the tenant scope; the deliveries of one event share a shard', () => {
    const scope = { accountId: 'acc1', mode: 'live' as const };
    const key = keys.sharded(scope, 'CHECKOUT', 'abc');
    expect(key.PK).toBe(`A#acc1#live#CHECKOUT#${shardOf('abc')}`);
    expect(keys.shards(scope, 'CHECKOUT')).toContain(key.PK);
    expect(keys.shards({ ...scope, mode: 'test' }, 'CHECKOUT')).not.toContain(key.PK);
    expect(keys.sharded(scope, 'WEBHOOK_DELIVERY', 'ev1_wh1', 'ev1').PK).toBe(keys.sharded(scope, 'WEBHOOK_DELIVERY', 'ev1_wh2', 'ev1').PK);
  });
});

describe('merging shards into one ordered list', () => {
  const uneven = [[1, 2, 3, 50, 51, 52, 53, 54], [4], [], [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], [99]].map((s) => s.map(id));
  const all = uneven.flat().sort().reverse();

  it('pages newest first through every shard, each item once, in order', async () => {
    for (const limit of [1, 3, 7, 100]) {
      const pages = await pageThrough(uneven, limit);
      expect(pages.flat()).toEqual(all);
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
    }
  });

  it('pages oldest first too', async () => {
    expect((await pageThrough(uneven, 4, { ascending: true })).flat()).toEqual([...all].reverse());
  });

  it('an item dropped by a read (a filter in memory) leaves the order and the cursor intact', async () => {
    const odd = (x: string) => Number.parseInt(x, 16) % 2 === 1;
    const pages = await pageThrough(uneven, 3, { drop: odd });
    expect(pages.flat()).toEqual(all.filter((x) => !odd(x)));
  });

  it('reads again only the shards that hold the page back', async () => {
    const { read, reads } = memoryShards(uneven);
    const page = await mergeShards({ shards: uneven.length, read, sortKey: (x) => x, limit: 6 });
    expect(page.items).toEqual(all.slice(0, 6));
    expect(reads.length).toBeLessThan(uneven.length * 3);
  });

  it('the last page has no cursor; an empty list is one empty page', async () => {
    expect(await pageThrough([[], [], []], 5)).toEqual([[]]);
    const { read } = memoryShards(uneven);
    expect((await mergeShards({ shards: uneven.length, read, sortKey: (x) => x, limit: all.length })).last).toBeUndefined();
  });

  it('a cursor this list made for this tenant is read back; any other is a 400', () => {
    const scope = { accountId: 'acc1', mode: 'test' as const };
    const cursor = encodeShardCursor(scope, id(7))!;
    expect(decodeShardCursor(scope, cursor)).toBe(id(7));
    expect(decodeShardCursor(scope, undefined)).toBeUndefined();
    for (const bad of ['abc', 's1.', 's1.!!', `${cursor}x=`]) expect(() => decodeShardCursor(scope, bad)).toThrow(expect.objectContaining({ status: 400 }));
    for (const other of [
      { ...scope, mode: 'live' as const },
      { ...scope, accountId: 'acc2' },
    ])
      expect(() => decodeShardCursor(other, cursor)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('a cursor names its list: another list of the same tenant refuses it', () => {
    const scope = { accountId: 'acc1', mode: 'test' as const };
    const sales = encodeShardCursor(scope, id(3), 'sales')!;
    expect(decodeShardCursor(scope, sales, 'sales')).toBe(id(3));
    for (const list of ['customers', 'sales:one_time', undefined])
      expect(() => decodeShardCursor(scope, sales, list)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('queryRead keeps what the filter accepts and continues after the last item read, kept or not', async () => {
    const read = queryRead(
      async (_shard, after, limit) => {
        const items = ['9', '8', '7', '6', '5'].filter((k) => after === undefined || k < after).slice(0, limit);
        return { items, cursor: items.length === limit ? 'more' : undefined };
      },
      (k: string) => k,
      (k) => Number(k) % 2 === 1,
    );
    expect(await read(0, undefined, 2)).toEqual({ items: ['9'], last: '8' });
    expect(await read(0, '8', 2)).toEqual({ items: ['7'], last: '6' });
    expect(await read(0, '6', 2)).toEqual({ items: ['5'], last: undefined });
    expect(afterBound('x')).toEqual({ before: 'x' });
    expect(afterBound('x', true)).toEqual({ after: 'x' });
    expect(afterBound(undefined)).toEqual({});
  });

  it('an index path of a hot kind takes the write shard of the record id, inside the tenant scope', () => {
    const scope = { accountId: 'acc1', mode: 'test' as const };
    const key = keys.shardedIndexed('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed', 'c1', 'c1');
    expect(key).toEqual({ GSI1PK: `A#acc1#test#CONTACTS_BY_STATUS#subscribed#${shardOf('c1')}`, GSI1SK: 'c1' });
    const shards = keys.indexShards('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed');
    expect(shards).toHaveLength(WRITE_SHARDS);
    expect(shards.map((s) => s.pk)).toContain(key.GSI1PK);
    expect(shards.every((s) => s.index === 'GSI1' && s.pk.startsWith('A#acc1#test#'))).toBe(true);
  });
});
