import { describe, expect, it } from 'vitest';
import {
  contributionDelta,
  contributionOf,
  dayRange,
  productCounters,
  shardOf,
  sumDays,
  sumRecurring,
  topProducts,
  WRITE_SHARDS,
} from '../../shared/analytics/rules';

describe('analytics rules', () => {
  it('lists the days of a range, both ends included, and refuses what is not a range of dates', () => {
    expect(dayRange('2024-02-28', '2024-03-01')).toEqual(['2024-02-28', '2024-02-29', '2024-03-01']);
    expect(dayRange('2024-01-01', '2024-12-31')).toHaveLength(366);
    expect(() => dayRange('2023-02-29', '2023-03-01')).toThrow(/from must be a date/);
    expect(() => dayRange('2024-01-01', '2024-1-2')).toThrow(/to must be a date/);
    expect(() => dayRange('2024-03-02', '2024-03-01')).toThrow(/not be before/);
    expect(() => dayRange('2024-01-01', '2025-01-01')).toThrow(/at most 366/);
  });

  it('spreads ids over every shard, the same id always on the same one', () => {
    const seen = new Set(Array.from({ length: 400 }, (_, i) => shardOf(`65a1b2c3d4e5f60718293${String(i).padStart(3, '0')}`)));
    expect(seen.size).toBe(WRITE_SHARDS);
    expect(shardOf('abc')).toBe(shardOf('abc'));
  });

  it('sums the shards of each day in one currency, net = gross - refunds', () => {
    const items = [
      { date: '2026-01-01', gross_USD: 1000, sales_USD: 1, gross_EUR: 700, sales_EUR: 1 },
      {
        date: '2026-01-01',
        gross_USD: 500,
        sales_USD: 1,
        refunds_USD: 200,
        newSubscribers: 1,
        recovered_USD: 500,
        recoveredSales_USD: 1,
        recovered_EUR: 700,
        recoveredSales_EUR: 1,
      },
      { date: '2026-01-03', refunds_USD: 100, churnedSubscribers: 1 },
    ];
    expect(sumDays(['2026-01-01', '2026-01-02', '2026-01-03'], items, 'USD')).toEqual([
      {
        date: '2026-01-01',
        grossCents: 1500,
        refundsCents: 200,
        netCents: 1300,
        sales: 2,
        recoveredCents: 500,
        recoveredSales: 1,
        newSubscribers: 1,
        churnedSubscribers: 0,
      },
      {
        date: '2026-01-02',
        grossCents: 0,
        refundsCents: 0,
        netCents: 0,
        sales: 0,
        recoveredCents: 0,
        recoveredSales: 0,
        newSubscribers: 0,
        churnedSubscribers: 0,
      },
      {
        date: '2026-01-03',
        grossCents: 0,
        refundsCents: 100,
        netCents: -100,
        sales: 0,
        recoveredCents: 0,
        recoveredSales: 0,
        newSubscribers: 0,
        churnedSubscribers: 1,
      },
    ]);
    expect(
      sumRecurring(
        [
          { mrr_USD: 900, activeSubscribers: 1 },
          { mrr_USD: 1000, mrr_EUR: 5, activeSubscribers: 2 },
        ],
        'USD',
      ),
    ).toEqual({ mrrCents: 1900, activeSubscribers: 3 });
  });

  it('counts what a subscriber pays per month: the latest charge, the offer price in a trial, nothing paused or ended', () => {
    const offer = { priceCents: 2000, currency: 'usd', frequency: 'monthly' };
    expect(contributionOf({ status: 'active', paused: false }, offer, { amountCents: 1500, currency: 'USD' })).toEqual({
      active: true,
      monthlyCents: 1500,
      currency: 'USD',
    });
    expect(contributionOf({ status: 'trialing', paused: false }, offer)).toEqual({ active: true, monthlyCents: 2000, currency: 'USD' });
    expect(contributionOf({ status: 'active', paused: true }, offer).monthlyCents).toBe(0);
    expect(contributionOf({ status: 'past_due', paused: false }, offer)).toEqual({ active: false, monthlyCents: 0, currency: 'USD' });
    expect(contributionOf({ status: 'active', paused: false }, { ...offer, frequency: 'yearly', priceCents: 12000 }).monthlyCents).toBe(1000);
    expect(contributionOf({ status: 'active', paused: false }, { ...offer, frequency: 'weekly', priceCents: 300 }).monthlyCents).toBe(1300);
  });

  it('moves the counters by the difference only, and by nothing when nothing changed', () => {
    const a = { active: true, monthlyCents: 1500, currency: 'USD' };
    expect(contributionDelta(undefined, a)).toEqual({ mrr_USD: 1500, activeSubscribers: 1 });
    expect(contributionDelta(a, a)).toEqual({});
    expect(contributionDelta(a, { active: false, monthlyCents: 0, currency: 'USD' })).toEqual({ mrr_USD: -1500, activeSubscribers: -1 });
    expect(contributionDelta(a, { active: true, monthlyCents: 1000, currency: 'EUR' })).toEqual({ mrr_USD: -1500, mrr_EUR: 1000 });
  });
});

describe('top products of a period', () => {
  it('adds each product of a sale, by currency, keeping its name; leaves out ids that cannot be attribute names', () => {
    const { add, names } = productCounters(
      [
        { productId: 'p1', name: 'Ebook', cents: 3000 },
        { productId: 'up1', name: 'Bonus', cents: 500 },
        { productId: 'bad id!', name: 'x', cents: 1 },
      ],
      'usd',
    );
    expect(add).toEqual({ pg_USD_p1: 3000, ps_USD_p1: 1, pg_USD_up1: 500, ps_USD_up1: 1 });
    expect(names).toEqual({ pn_p1: 'Ebook', pn_up1: 'Bonus' });
  });

  it('ranks the period by gross revenue across days and shards, in one currency', () => {
    const items = [
      { date: '2026-03-01', pg_USD_a: 1000, ps_USD_a: 1, pn_a: 'A', pg_USD_b: 3000, ps_USD_b: 1, pn_b: 'B', pg_EUR_c: 9000, ps_EUR_c: 1 },
      { date: '2026-03-02', pg_USD_a: 2500, ps_USD_a: 2, pn_a: 'A renamed' },
    ];
    expect(topProducts(items, 'USD')).toEqual([
      { productId: 'a', name: 'A renamed', sales: 3, grossCents: 3500 },
      { productId: 'b', name: 'B', sales: 1, grossCents: 3000 },
    ]);
    expect(topProducts(items, 'usd', 1).map((p) => p.productId)).toEqual(['a']);
    expect(topProducts(items, 'EUR')).toEqual([{ productId: 'c', name: '', sales: 1, grossCents: 9000 }]);
  });
});
