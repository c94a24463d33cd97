import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import type { Clock } from '../../shared/platform/clock';
import { newEvent } from '../../shared/platform/events';
import { objectId } from '../../shared/platform/ids';
import type { Store } from '../../shared/store/store';
import type { UsageReportRecord } from '../../shared/usage/records';
import * as repo from '../../shared/usage/repository';
import { foldReports, periodUsage } from '../../shared/usage/service';

/** A clock the test sets. */
class SetClock implements Clock {
  constructor(public ms: number) {}
  now = () => new Date(this.ms);
  nowMs = () => this.ms;
}

const scope = { accountId: 'acct_fold', mode: 'test' as const };
const SUB = 'sub1';
const PERIOD = '2026-03-01T00:00:00.000Z';
const T0 = Date.parse('2026-03-10T23:59:40.000Z');
let store: Store;

/** A keyless report minted at the clock's time, as the request path writes it (one PutItem). */
async function put(clock: SetClock, meter: string, quantity: number) {
  const report: UsageReportRecord = {
    _id: objectId(clock),
    subscriberId: SUB,
    subscriptionId: 'off1',
    meter,
    quantity,
    periodStart: PERIOD,
    idempotencyKey: null,
    createdAt: clock.now().toISOString(),
  };
  await repo.putReport(store, scope, report, newEvent(scope, clock, 'usage.recorded', { ...report }));
}

const totals = (days: { totals: Record<string, number> }[]) => {
  const out: Record<string, number> = {};
  for (const d of days) for (const [m, q] of Object.entries(d.totals)) out[m] = (out[m] ?? 0) + q;
  return out;
};

beforeAll(async () => {
  store = (await createTestDeps()).store;
});

describe('usage fold', () => {
  it('folds settled reports once, even when folds race; reads stay exact before and after', async () => {
    const clock = new SetClock(T0);
    for (let i = 0; i < 20; i++) await put(clock, 'calls', 1);
    await put(clock, 'gb', 4);
    clock.ms = T0 + 30_000; // the next day: two day counters
    for (let i = 0; i < 5; i++) await put(clock, 'calls', 2);
    expect(totals(await periodUsage({ store }, scope, SUB, PERIOD))).toEqual({ calls: 30, gb: 4 });

    // 70 s after T0 only the first 21 have settled (the others are younger than 60 s).
    clock.ms = T0 + 70_000;
    expect(await foldReports({ store, clock }, scope, SUB, { force: true })).toBe(21);
    expect(totals(await repo.periodDays(store, scope, SUB, PERIOD))).toEqual({ calls: 20, gb: 4 });
    // A report minted before the fold but written after it (inside the settle window) still counts.
    clock.ms = T0 + 40_000;
    await put(clock, 'calls', 100);
    clock.ms = T0 + 70_000;
    expect(totals(await periodUsage({ store }, scope, SUB, PERIOD))).toEqual({ calls: 130, gb: 4 });
    // Folded at most about once a minute unless forced.
    expect(await foldReports({ store, clock }, scope, SUB)).toBe(0);

    clock.ms = T0 + 200_000;
    const racing = await Promise.all(Array.from({ length: 6 }, () => foldReports({ store, clock }, scope, SUB, { force: true })));
    expect(racing.reduce((a, b) => a + b, 0)).toBe(6);
    const days = await repo.periodDays(store, scope, SUB, PERIOD);
    expect(days).toEqual([
      { day: '2026-03-10', totals: { calls: 20, gb: 4 } },
      { day: '2026-03-11', totals: { calls: 110 } },
    ]);
    expect(await periodUsage({ store }, scope, SUB, PERIOD)).toEqual(days);
    expect(await foldReports({ store, clock }, scope, SUB, { force: true })).toBe(0);
    // The reports read back without the event they carry.
    expect(Object.keys((await repo.latestReports(store, scope, SUB, 1))[0]!).sort()).toEqual([
      '_id',
      'createdAt',
      'idempotencyKey',
      'meter',
      'periodStart',
      'quantity',
      'subscriberId',
      'subscriptionId',
    ]);
  });
});
