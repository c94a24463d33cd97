import { describe, expect, it } from 'vitest';
import { dailySeries, mrrByCurrency, netAmount, revenueByCurrency } from '../../dashboard/src/lib/metrics';
import { formatMoney } from '../../dashboard/src/lib/money';

const sale = (amount: number, currency: string, createdAt: string, refundedAmount = 0) => ({ amount, currency, createdAt, refundedAmount, status: refundedAmount ? 'refunded' : 'completed' });

describe('dashboard home figures', () => {
  it('sums revenue per currency, net of refunds, never across currencies', () => {
    const sales = [sale(10, 'usd', '2026-01-01T10:00:00Z'), sale(5.5, 'USD', '2026-01-02T10:00:00Z', 2.25), sale(7, 'EUR', '2026-01-02T11:00:00Z')];
    expect(netAmount(sales[1]!)).toBe(3.25);
    expect(revenueByCurrency(sales)).toEqual({ USD: 13.25, EUR: 7 });
  });

  it('counts MRR from active and trialing subscribers only, per currency, normalized to a month', () => {
    const offers = [
      { _id: 'm', price: 10, currency: 'USD', frequency: 'monthly' },
      { _id: 'y', price: 120, currency: 'USD', frequency: 'yearly' },
      { _id: 'w', price: 3, currency: 'EUR', frequency: 'weekly' },
    ];
    const subscribers = [
      { subscriptionId: 'm', status: 'active' },
      { subscriptionId: 'y', status: 'trialing' },
      { subscriptionId: 'm', status: 'canceled' },
      { subscriptionId: 'm', status: 'past_due' },
      { subscriptionId: 'w', status: 'active' },
      { subscriptionId: 'gone', status: 'active' },
    ];
    expect(mrrByCurrency(subscribers, offers)).toEqual({ USD: 20, EUR: 13 });
  });

  it('puts each sale on its UTC day of the window and leaves the rest of the days at zero', () => {
    const sales = [sale(10, 'USD', '2026-03-10T23:59:00Z'), sale(4, 'USD', '2026-03-10T00:00:00Z'), sale(2, 'EUR', '2026-03-08T12:00:00Z'), sale(99, 'USD', '2026-02-01T00:00:00Z')];
    const { points, currencies } = dailySeries(sales, new Date('2026-03-10T15:00:00Z'), 3);
    expect(currencies).toEqual(['EUR', 'USD']);
    expect(points).toEqual([
      { date: '2026-03-08', sales: 1, EUR: 2, USD: 0 },
      { date: '2026-03-09', sales: 0, EUR: 0, USD: 0 },
      { date: '2026-03-10', sales: 2, EUR: 0, USD: 14 },
    ]);
  });

  it('formats money in the sale\'s own currency', () => {
    expect(formatMoney(12.5, 'usd')).toMatch(/12\.50/);
    expect(formatMoney(12.5, 'EUR')).toMatch(/€/);
  });
});
