import { describe, expect, it } from 'vitest';
import {
  mergeFacts,
  mergeView,
  packTable,
  rowAt,
  tableFromRows,
  unpackTables,
  viewRows,
  walkView,
  type ContactFactRow,
  type FactDelta,
} from '../../shared/audience/facts';
import { compileDefinition } from '../../shared/segments/columns';
import { matchesDefinition, parseDefinition, type Rule } from '../../shared/segments/rules';
import { seededRandom } from '../support/seeded-random';

const NOW = Date.parse('2026-06-15T12:00:00.000Z');
const DAY = 86_400_000;
const r = seededRandom(11);
const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const at = (ms: number) => new Date(ms).toISOString();
// Times around the rule boundaries (exactly `days` ago, a millisecond either side) and far away.
const time = () => (r() < 0.3 ? null : at(NOW - pick([1, 7, 30]) * DAY + pick([-1, 0, 1, -5 * DAY, 3 * DAY])));

const row = (i: number): ContactFactRow => {
  const last = time();
  return {
    _id: i.toString(16).padStart(24, '0'),
    email: `c${i}@example.com`,
    name: r() < 0.5 ? null : `Name ${i}`,
    status: 'subscribed',
    source: pick(['form', 'checkout', 'import', 'api', null] as const),
    country: pick(['DE', 'fr', 'US', null]),
    tags: ['vip', 'beta', 'lead'].filter(() => r() < 0.3),
    smartTags: [],
    firstPurchaseAt: last,
    lastPurchaseAt: last,
    totalSpentCents: pick([0, 999, 1000, 1001, 50_000]),
    productIds: ['p1', 'p2', 'p3'].filter(() => r() < 0.3),
    lastOpenAt: time(),
    lastClickAt: time(),
  };
};

const RULES: Rule[] = [
  { type: 'bought', productId: 'p1' },
  { type: 'bought', productId: 'never-sold' },
  { type: 'notBought', productId: 'p2' },
  { type: 'notBought', productId: 'never-sold' },
  { type: 'spent', op: 'gt', amountCents: 1000 },
  { type: 'spent', op: 'lt', amountCents: 1000 },
  ...[1, 7, 30].flatMap((days): Rule[] => [
    { type: 'boughtWithin', days },
    { type: 'notBoughtWithin', days },
    { type: 'engagedWithin', days, event: 'opened' },
    { type: 'engagedWithin', days, event: 'clicked' },
    { type: 'engagedWithin', days, event: 'any' },
  ]),
  { type: 'tag', tag: 'vip' },
  { type: 'tag', tag: 'nobody' },
  { type: 'notTag', tag: 'beta' },
  { type: 'notTag', tag: 'nobody' },
  { type: 'country', countries: ['DE', 'FR'] },
  { type: 'country', countries: ['JP'] },
  { type: 'source', source: 'checkout' },
  { type: 'source', source: 'dashboard' },
];

describe('segments over columns (compiled evaluator, columnar chunks, merged view)', () => {
  const rows = Array.from({ length: 3000 }, (_, i) => row(i));
  const table = tableFromRows(rows);

  it('every rule compiled over columns answers as matchesDefinition does, at the day boundaries too', { timeout: 30_000 }, () => {
    for (const rule of RULES) {
      for (const match of ['all', 'any'] as const) {
        const definition = parseDefinition({ match, groups: [{ match, rules: [rule] }] });
        const test = compileDefinition(definition, table, NOW);
        const expected = rows.map((c) => matchesDefinition(definition, c, NOW));
        expect(
          rows.map((_, i) => test(i)),
          JSON.stringify(rule),
        ).toEqual(expected);
      }
    }
    for (let k = 0; k < 40; k++) {
      const definition = parseDefinition({
        match: pick(['all', 'any']),
        groups: Array.from({ length: 1 + Math.floor(r() * 3) }, () => ({
          match: pick(['all', 'any']),
          rules: Array.from({ length: 1 + Math.floor(r() * 4) }, () => pick(RULES)),
        })),
      });
      const test = compileDefinition(definition, table, NOW);
      expect(rows.filter((_, i) => test(i)).map((c) => c._id)).toEqual(rows.filter((c) => matchesDefinition(definition, c, NOW)).map((c) => c._id));
    }
  });

  it('columnar chunks stay under the byte limit and decode to the same rows', () => {
    const chunks = packTable(rows, 20_000);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(20_000);
    const back = unpackTables(chunks);
    expect(back.size).toBe(rows.length);
    expect(Array.from({ length: back.size }, (_, i) => rowAt(back, i))).toEqual(rows);
    expect(packTable([])).toEqual([]);
  });

  it('the merged view answers as mergeFacts, and walks in id order from a cursor', () => {
    const deltas: FactDelta[] = [
      { kind: 'row', row: { ...rows[5]!, tags: ['new'] } },
      { kind: 'row', row: { ...rows[6]!, lastOpenAt: '2020-01-01T00:00:00.000Z' } }, // from an older read: engagement stays
      { kind: 'gone', id: rows[7]!._id },
      { kind: 'row', row: { ...rows[8]!, status: 'unsubscribed' } },
      { kind: 'row', row: { ...row(99_999), _id: '00000000000000000000005g' } }, // new, sorts among the others
      { kind: 'click', id: rows[9]!._id, at: at(NOW) },
      { kind: 'open', id: 'ffffffffffffffffffffffff', at: at(NOW) },
      { kind: 'tags', id: rows[10]!._id, tags: ['smart'], smartTags: ['smart'] }, // a batched smart-tag change
      { kind: 'tags', id: rows[5]!._id, tags: ['new', 'smart'], smartTags: ['smart'] }, // on top of a row delta
      { kind: 'tags', id: 'fffffffffffffffffffffffe', tags: ['smart'], smartTags: ['smart'] }, // not subscribed: ignored
    ];
    const view = mergeView(table, deltas);
    expect(viewRows(view).find((r) => r._id === rows[10]!._id)).toMatchObject({ tags: ['smart'], smartTags: ['smart'], email: rows[10]!.email });
    expect(viewRows(view).find((r) => r._id === rows[5]!._id)).toMatchObject({ tags: ['new', 'smart'], smartTags: ['smart'] });
    expect(viewRows(view)).toEqual(mergeFacts(rows, deltas));
    expect(view.size).toBe(rows.length - 2 + 1);
    const after: string[] = [];
    walkView(view, rows[100]!._id, (step) => {
      after.push(step.row ? step.row._id : view.table.ids[step.index]!);
      return after.length < 3;
    });
    expect(after).toEqual(
      mergeFacts(rows, deltas)
        .map((c) => c._id)
        .filter((id) => id > rows[100]!._id)
        .slice(0, 3),
    );
  });
});
