import { describe, expect, it } from 'vitest';
import { mergeView, tableFromRows, viewRows, type ContactFactRow, type StampedDelta } from '../../shared/audience/facts';
import { countAt, countNow, COUNT_HORIZON_MS, partsRead } from '../../shared/segments/counts';
import { matchesDefinition, parseDefinition, type Definition, type Rule } from '../../shared/segments/rules';
import { seededRandom } from '../support/seeded-random';

// Given a snapshot, deltas before and after an instant C (each row and removal delta carrying the
// contact as it was), when a count is stored as of C and moved by the later deltas, then it equals
// the count over the whole merged view, at any time within the horizon, or is refused (undefined)
// exactly when a tag or engagement change the definition reads has no earlier state.

const C = Date.parse('2026-06-15T12:00:00.000Z');
const DAY = 86_400_000;
const r = seededRandom(23);
const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const iso = (ms: number) => new Date(ms).toISOString();
// Times near the rule boundaries as seen from C and from up to two days later.
const time = () => (r() < 0.3 ? null : iso(C - pick([1, 7, 30]) * DAY + pick([-1, 0, 1, 2, 3600_000, DAY / 2, DAY, 1.5 * DAY, -2 * DAY])));

const fresh = (i: number): ContactFactRow => {
  const last = time();
  return {
    _id: i.toString(16).padStart(24, '0'),
    email: `c${i}@example.com`,
    name: null,
    status: r() < 0.85 ? 'subscribed' : 'unsubscribed',
    source: pick(['form', 'checkout', 'import', 'api', null] as const),
    country: pick(['DE', 'US', null]),
    tags: ['vip', 'beta'].filter(() => r() < 0.4),
    smartTags: [],
    firstPurchaseAt: last,
    lastPurchaseAt: last,
    totalSpentCents: pick([0, 999, 1001, 50_000]),
    productIds: ['p1', 'p2'].filter(() => r() < 0.4),
    lastOpenAt: time(),
    lastClickAt: time(),
  };
};

const RULES: Rule[] = [
  { type: 'bought', productId: 'p1' },
  { type: 'notBought', productId: 'p2' },
  { type: 'spent', op: 'gt', amountCents: 1000 },
  { type: 'boughtWithin', days: 7 },
  { type: 'notBoughtWithin', days: 30 },
  { type: 'country', countries: ['DE'] },
  { type: 'source', source: 'form' },
];
const TAG_RULES: Rule[] = [
  { type: 'tag', tag: 'vip' },
  { type: 'notTag', tag: 'beta' },
];
const ENGAGED: Rule[] = [
  { type: 'engagedWithin', days: 1, event: 'opened' },
  { type: 'engagedWithin', days: 7, event: 'any' },
];

function definition(pool: Rule[]): Definition {
  const group = () => ({ match: pick(['all', 'any']), rules: Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(pool)) });
  return parseDefinition({ match: pick(['all', 'any']), groups: Array.from({ length: 1 + Math.floor(r() * 2) }, group) });
}

const fullCount = (rows: ContactFactRow[], d: Definition, nowMs: number) => rows.filter((row) => matchesDefinition(d, row, nowMs)).length;

/** A random history: the truth per contact and the deltas that wrote it, `was` as the contact stood before each. */
function history(snapshot: ContactFactRow[], stamps: number[], options: { partial: boolean }) {
  const truth = new Map<string, ContactFactRow | null>(snapshot.map((row) => [row._id, row]));
  const ids = snapshot.map((row) => row._id);
  let next = snapshot.length;
  const deltas: StampedDelta[] = [];
  for (const ms of stamps) {
    const stamp = iso(ms);
    const roll = r();
    if (roll < 0.15) {
      const row = { ...fresh(next++), status: 'subscribed' as const };
      ids.push(row._id);
      truth.set(row._id, row);
      deltas.push({ kind: 'row', row, was: null, stamp });
      continue;
    }
    const id = pick(ids);
    const was = truth.get(id) ?? null;
    if (roll < 0.25) {
      if (!was) continue;
      truth.set(id, null);
      deltas.push({ kind: 'gone', id, was, stamp });
    } else if (roll < 0.8 || !options.partial) {
      const base = was ?? fresh(Number.parseInt(id, 16));
      const change = pick(['status', 'tags', 'buy', 'country'] as const);
      const row: ContactFactRow = {
        ...base,
        status: change === 'status' ? (base.status === 'subscribed' ? 'unsubscribed' : 'subscribed') : base.status,
        tags: change === 'tags' ? (base.tags.includes('vip') ? base.tags.filter((t) => t !== 'vip') : [...base.tags, 'vip']) : base.tags,
        lastPurchaseAt: change === 'buy' ? stamp : base.lastPurchaseAt,
        productIds: change === 'buy' ? [...new Set([...base.productIds, 'p1'])] : base.productIds,
        totalSpentCents: change === 'buy' ? base.totalSpentCents + 500 : base.totalSpentCents,
        country: change === 'country' ? pick(['DE', 'FR']) : base.country,
      };
      truth.set(id, row);
      deltas.push({ kind: 'row', row, was, stamp });
    } else if (roll < 0.9) {
      if (!was) continue;
      const tags = was.tags.includes('beta') ? was.tags.filter((t) => t !== 'beta') : [...was.tags, 'beta'];
      truth.set(id, { ...was, tags });
      deltas.push({ kind: 'tags', id, tags, smartTags: was.smartTags, stamp });
    } else {
      if (!was) continue;
      truth.set(id, { ...was, lastOpenAt: stamp });
      deltas.push({ kind: 'open', id, at: stamp, stamp });
    }
  }
  return deltas;
}

describe('stored segment counts', () => {
  it('a count stored as of C and moved by the deltas since equals the whole evaluation, within the horizon', () => {
    let moved = 0;
    let refused = 0;
    for (let round = 0; round < 60; round++) {
      const snapshot = Array.from({ length: 300 }, (_, i) => fresh(i));
      const partial = round % 2 === 1;
      const before = Array.from({ length: 60 }, (_, k) => C - 20_000 + k * 100);
      const after = Array.from({ length: 80 }, (_, k) => C + k * 1_000);
      const deltas = history(snapshot, [...before, ...after], { partial });
      const pool = round % 3 === 0 ? RULES : round % 3 === 1 ? [...RULES, ...TAG_RULES] : [...RULES, ...ENGAGED];
      const d = definition(pool);
      const table = tableFromRows(snapshot);
      const stored = countAt(
        mergeView(
          table,
          deltas.filter((x) => x.stamp < iso(C)),
        ),
        d,
        C,
      )!;
      const whole = viewRows(mergeView(table, deltas));
      // Right after the last write, and later as purchases and opens age past the rule windows.
      for (const nowMs of [C + 80_000, C + DAY / 2 + 1, C + DAY + 7, C + COUNT_HORIZON_MS]) {
        const got = countNow({ ...stored, at: iso(C) }, deltas, d, nowMs);
        if (!got) {
          const reads = partsRead(d);
          const hasPartial = deltas.some((x) => x.stamp >= iso(C) && ((x.kind === 'tags' && reads.tags) || (x.kind === 'open' && reads.engagement)));
          expect(hasPartial, JSON.stringify(d)).toBe(true);
          refused++;
          continue;
        }
        expect(got.count, `${JSON.stringify(d)} at +${nowMs - C} ms`).toBe(fullCount(whole, d, nowMs));
        expect(got.subscribed).toBe(whole.length);
        moved++;
      }
    }
    expect(moved).toBeGreaterThan(150);
    expect(refused).toBeGreaterThan(0);
  });

  it('changes of facts the definition does not read move nothing and are never refused', () => {
    const snapshot = Array.from({ length: 50 }, (_, i) => ({ ...fresh(i), status: 'subscribed' as const }));
    const d = parseDefinition({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'spent', op: 'gt', amountCents: 1000 }] }] });
    const stored = countAt(mergeView(tableFromRows(snapshot), []), d, C)!;
    const deltas: StampedDelta[] = snapshot.slice(0, 10).flatMap((row, k): StampedDelta[] => [
      { kind: 'open', id: row._id, at: iso(C + k), stamp: iso(C + k) },
      { kind: 'tags', id: row._id, tags: ['x'], smartTags: [], stamp: iso(C + k) },
    ]);
    expect(countNow({ ...stored, at: iso(C) }, deltas, d, C + 60_000)).toEqual({ count: stored.count, subscribed: 50 });
  });

  it('refuses past the horizon and for a row delta written before `was` was recorded', () => {
    const snapshot = Array.from({ length: 20 }, (_, i) => ({ ...fresh(i), status: 'subscribed' as const }));
    const d = parseDefinition({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'country', countries: ['DE'] }] }] });
    const stored = { ...countAt(mergeView(tableFromRows(snapshot), []), d, C)!, at: iso(C) };
    expect(countNow(stored, [], d, C + COUNT_HORIZON_MS + 1)).toBeUndefined();
    const old: StampedDelta = { kind: 'row', row: { ...snapshot[0]!, country: 'DE' }, stamp: iso(C + 5) };
    expect(countNow(stored, [old], d, C + 10)).toBeUndefined();
    // Deltas older than the stored instant are already in it.
    expect(countNow(stored, [{ ...old, stamp: iso(C - 5) }], d, C + 10)).toEqual({ count: stored.count, subscribed: 20 });
  });

  it('flips: members of a time window leave (and lapsed buyers join) at the exact millisecond', () => {
    const bought = (ms: number): ContactFactRow => ({ ...fresh(1), status: 'subscribed', lastPurchaseAt: iso(ms), firstPurchaseAt: iso(ms) });
    const rows = [bought(C - 7 * DAY + 1000), { ...bought(C - 6 * DAY), _id: 'b'.padStart(24, '0') }];
    const within = parseDefinition({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'boughtWithin', days: 7 }] }] });
    const lapsed = parseDefinition({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'notBoughtWithin', days: 7 }] }] });
    const view = mergeView(tableFromRows(rows), []);
    const a = { ...countAt(view, within, C)!, at: iso(C) };
    const b = { ...countAt(view, lapsed, C)!, at: iso(C) };
    expect(a.count).toBe(2);
    expect(countNow(a, [], within, C + 1000)!.count).toBe(2);
    expect(countNow(a, [], within, C + 1001)!.count).toBe(1);
    expect(countNow(b, [], lapsed, C + 1001)!.count).toBe(1);
    expect(countNow(a, [], within, C + DAY + 1)!.count).toBe(0);
    expect(countNow(b, [], lapsed, C + DAY + 1)!.count).toBe(2);
  });
});
