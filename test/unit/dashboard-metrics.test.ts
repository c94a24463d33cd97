import { describe, expect, it } from 'vitest';
import { changeWords, chartPoints, formatDay, lastDays, latestActivity, percentChange, previousPeriod } from '../../dashboard/src/lib/metrics';
import { formatCents, formatMoney } from '../../dashboard/src/lib/money';

describe('dashboard home figures', () => {
  it('asks for the last 30 UTC days, today included', () => {
    expect(lastDays(new Date('2026-03-10T23:30:00Z'))).toEqual({ from: '2026-02-09', to: '2026-03-10' });
    expect(lastDays(new Date('2026-03-10T00:00:00Z'), 3)).toEqual({ from: '2026-03-08', to: '2026-03-10' });
  });

  it('charts each day of the summary: sales and revenue net of refunds in major units', () => {
    const days = [
      { date: '2026-03-09', grossCents: 0, refundsCents: 0, netCents: 0, sales: 0 },
      { date: '2026-03-10', grossCents: 3000, refundsCents: 1050, netCents: 1950, sales: 2 },
    ];
    expect(chartPoints(days)).toEqual([
      { date: '2026-03-09', sales: 0, revenue: 0 },
      { date: '2026-03-10', sales: 2, revenue: 19.5 },
    ]);
  });

  it("formats money in the store's own currency", () => {
    expect(formatMoney(12.5, 'usd')).toMatch(/12\.50/);
    expect(formatMoney(12.5, 'EUR')).toMatch(/€/);
    expect(formatCents(1950, 'USD')).toMatch(/19\.50/);
  });
});

describe('dashboard home comparison and activity', () => {
  it('compares with the period of the same length just before', () => {
    expect(previousPeriod({ from: '2026-03-01', to: '2026-03-30' })).toEqual({ from: '2026-01-30', to: '2026-02-28' });
    expect(previousPeriod({ from: '2026-03-10', to: '2026-03-10' })).toEqual({ from: '2026-03-09', to: '2026-03-09' });
  });

  it('says the change in words, without dividing by zero', () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(50, 100)).toBe(-50);
    expect(percentChange(0, 0)).toBe(0);
    expect(percentChange(10, 0)).toBeNull();
    expect(changeWords(150, 100, 30)).toBe('+50% on the previous 30 days');
    expect(changeWords(50, 100, 7)).toBe('−50% on the previous 7 days');
    expect(changeWords(3, 0, 30)).toBe('up from nothing in the previous 30 days');
  });

  it('writes days the way the reader reads them', () => {
    expect(formatDay('2026-11-03', 'en-US')).toBe('Nov 3');
    expect(formatDay('2026-11-03', 'de-DE')).toBe('3. Nov.');
  });

  it('lists the newest activity first, whatever its kind', () => {
    const items = [
      { kind: 'sale' as const, at: '2026-03-01T10:00:00Z', text: 'a' },
      { kind: 'subscriber' as const, at: '2026-03-03T10:00:00Z', text: 'b' },
      { kind: 'refund' as const, at: '2026-03-02T10:00:00Z', text: 'c' },
    ];
    expect(latestActivity(items, 2).map((i) => i.text)).toEqual(['b', 'c']);
  });
});
