/**
 * Home page figures, from the analytics route's daily rollups (GET /analytics/summary): the page
 * reads a row per day, never the sales themselves. Plain functions so that
 * test/unit/dashboard-metrics.test.ts can check them.
 */
export interface SummaryDay {
  date: string;
  grossCents: number;
  refundsCents: number;
  netCents: number;
  sales: number;
}

export interface DayPoint {
  date: string;
  sales: number;
  revenue: number;
}

const DAY_MS = 86_400_000;

/** The `days` UTC days ending today, as the summary's `from` and `to`. */
export function lastDays(today: Date, days = 30): { from: string; to: string } {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return { from: new Date(end - (days - 1) * DAY_MS).toISOString().slice(0, 10), to: new Date(end).toISOString().slice(0, 10) };
}

/** One chart point per day: the number of sales and the revenue net of refunds, in major units. */
export const chartPoints = (days: SummaryDay[]): DayPoint[] => days.map((d) => ({ date: d.date, sales: d.sales, revenue: d.netCents / 100 }));
