import { describe, expect, it } from 'vitest';
import { decodeRow, encodeRow, mergeFacts, packChunks, unpackChunk, type ContactFactRow } from '../../shared/audience/facts';

const row = (id: string, extra: Partial<ContactFactRow> = {}): ContactFactRow => ({
  _id: id,
  email: `${id}@example.com`,
  name: null,
  status: 'subscribed',
  source: null,
  country: null,
  tags: [],
  smartTags: [],
  firstPurchaseAt: null,
  lastPurchaseAt: null,
  totalSpentCents: 0,
  productIds: [],
  lastOpenAt: null,
  lastClickAt: null,
  ...extra,
});

describe('contact facts (compact rows, chunks, merge)', () => {
  it('a row survives encoding, with and without a source, name and dates', () => {
    const full = row('a1', {
      name: 'Ada',
      status: 'unsubscribed',
      source: 'checkout',
      country: 'DE',
      tags: ['x', 'y'],
      smartTags: ['y'],
      firstPurchaseAt: '2026-01-01T00:00:00.000Z',
      lastPurchaseAt: '2026-02-01T00:00:00.000Z',
      totalSpentCents: 1234,
      productIds: ['p'],
      lastOpenAt: '2026-03-01T00:00:00.000Z',
      lastClickAt: '2026-03-02T00:00:00.000Z',
    });
    expect(decodeRow(encodeRow(full))).toEqual(full);
    expect(decodeRow(encodeRow(row('b')))).toEqual(row('b'));
  });

  it('packs rows into gzipped chunks under the byte limit and unpacks them in order', () => {
    const rows = Array.from({ length: 5000 }, (_, i) =>
      row(String(i).padStart(24, '0'), { email: `${Math.random().toString(36)}@example.com`, tags: ['vip'] }),
    );
    const chunks = packChunks(rows.map(encodeRow), 20_000);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(20_000);
    expect(chunks.flatMap(unpackChunk)).toEqual(rows);
    expect(packChunks([])).toEqual([]);
  });

  it('merges deltas in write order: rows replace, gone removes, status filters, engagement keeps the later time, new ids sort in', () => {
    const snapshot = [row('a'), row('b', { lastOpenAt: '2026-05-01T00:00:00.000Z' }), row('c'), row('d')];
    const merged = mergeFacts(snapshot, [
      { kind: 'row', row: row('a', { tags: ['new'] }) },
      { kind: 'row', row: row('b', { lastOpenAt: '2026-04-01T00:00:00.000Z', tags: ['t'] }) }, // written from an older read
      { kind: 'gone', id: 'c' },
      { kind: 'row', row: row('d', { status: 'unsubscribed' }) },
      { kind: 'row', row: row('0') },
      { kind: 'click', id: 'a', at: '2026-06-01T00:00:00.000Z' },
      { kind: 'open', id: 'zz', at: '2026-06-01T00:00:00.000Z' }, // not subscribed in the snapshot: ignored
      { kind: 'row', row: row('e', { status: 'unsubscribed' }) },
      { kind: 'row', row: row('e') }, // resubscribed later
      { kind: 'tags', id: 'e', tags: ['smart'], smartTags: ['smart'] }, // a batched smart-tag change: tag lists only
      { kind: 'tags', id: 'd', tags: ['smart'], smartTags: ['smart'] }, // unsubscribed: stays out
    ]);
    expect(merged.map((r) => r._id)).toEqual(['0', 'a', 'b', 'e']);
    expect(merged[1]).toMatchObject({ tags: ['new'], lastClickAt: '2026-06-01T00:00:00.000Z' });
    expect(merged[2]).toMatchObject({ tags: ['t'], lastOpenAt: '2026-05-01T00:00:00.000Z' });
    expect(merged[3]).toMatchObject({ _id: 'e', tags: ['smart'], smartTags: ['smart'], email: row('e').email });
    expect(mergeFacts([row('x', { status: 'bounced' }), row('y')], []).map((r) => r._id)).toEqual(['y']);
  });
});
