import { describe, expect, it } from 'vitest';
import { chartPoints, lastDays } from '../../dashboard/src/lib/metrics';
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
