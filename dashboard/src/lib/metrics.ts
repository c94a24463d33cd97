/**
 * Home page figures, computed from the API's list routes (there is no analytics route for them).
 * Plain functions so that test/unit/dashboard-metrics.test.ts can check them.
 */
export interface SaleLike {
  amount: number;
  refundedAmount?: number;
  currency: string;
  status: string;
  createdAt: string;
}

export interface OfferLike {
  _id: string;
  price: number;
  currency: string;
  frequency: string;
}

export interface SubscriberLike {
  subscriptionId: string;
  status: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** What a sale still brings in: its amount less what was refunded. */
export const netAmount = (sale: SaleLike) => round2(sale.amount - (sale.refundedAmount ?? 0));

export function revenueByCurrency(sales: SaleLike[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const sale of sales) {
    const code = (sale.currency || 'USD').toUpperCase();
    totals[code] = round2((totals[code] ?? 0) + netAmount(sale));
  }
  return totals;
}

const MONTHLY_FACTOR: Record<string, number> = { monthly: 1, yearly: 1 / 12, weekly: 52 / 12 };

/** Only active and trialing subscribers count toward recurring revenue (spec). */
export const countsAsActive = (status: string) => status === 'active' || status === 'trialing';

export function mrrByCurrency(subscribers: SubscriberLike[], offers: OfferLike[]): Record<string, number> {
  const byId = new Map(offers.map((o) => [o._id, o]));
  const totals: Record<string, number> = {};
  for (const subscriber of subscribers) {
    if (!countsAsActive(subscriber.status)) continue;
    const offer = byId.get(subscriber.subscriptionId);
    if (!offer) continue;
    const code = (offer.currency || 'USD').toUpperCase();
    totals[code] = round2((totals[code] ?? 0) + offer.price * (MONTHLY_FACTOR[offer.frequency] ?? 1));
  }
  return totals;
}

export interface DayPoint {
  date: string;
  sales: number;
  [currency: string]: number | string;
}

/** One point per UTC day of the last `days` days ending `today`: sales count and net revenue per currency. */
export function dailySeries(sales: SaleLike[], today: Date, days = 30): { points: DayPoint[]; currencies: string[] } {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const start = end - (days - 1) * 86_400_000;
  const currencies = [...new Set(sales.map((s) => (s.currency || 'USD').toUpperCase()))].sort();
  const points: DayPoint[] = [];
  for (let t = start; t <= end; t += 86_400_000) {
    const point: DayPoint = { date: new Date(t).toISOString().slice(0, 10), sales: 0 };
    for (const code of currencies) point[code] = 0;
    points.push(point);
  }
  for (const sale of sales) {
    const at = Date.parse(sale.createdAt);
    if (Number.isNaN(at) || at < start || at >= end + 86_400_000) continue;
    const point = points[Math.floor((at - start) / 86_400_000)]!;
    const code = (sale.currency || 'USD').toUpperCase();
    point.sales += 1;
    point[code] = round2((point[code] as number) + netAmount(sale));
  }
  return { points, currencies };
}
