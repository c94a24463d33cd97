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

/** The period just before `range`, of the same number of days (what Home compares with). */
export function previousPeriod(range: { from: string; to: string }): { from: string; to: string } {
  const from = Date.parse(`${range.from}T00:00:00Z`);
  const to = Date.parse(`${range.to}T00:00:00Z`);
  const days = Math.round((to - from) / DAY_MS) + 1;
  return { from: new Date(from - days * DAY_MS).toISOString().slice(0, 10), to: new Date(from - DAY_MS).toISOString().slice(0, 10) };
}

/** The change from `previous` to `current` in percent, rounded; null when there was nothing before. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return current === 0 ? 0 : null;
  return Math.round(((current - previous) / Math.abs(previous)) * 100);
}

/** The words under a figure: "+25% on the previous 30 days", "new this period", "same as before". */
export function changeWords(current: number, previous: number, days: number): string {
  const change = percentChange(current, previous);
  if (change === null) return `up from nothing in the previous ${days} days`;
  if (change === 0) return `same as the previous ${days} days`;
  return `${change > 0 ? '+' : '−'}${Math.abs(change)}% on the previous ${days} days`;
}

/** A day (YYYY-MM-DD, UTC) in the reader's own words: "Nov 3" in English, "3 nov." in French. */
export const formatDay = (date: string, locale?: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** One line of Home's recent activity. */
export interface Activity {
  kind: 'sale' | 'refund' | 'subscriber';
  at: string;
  text: string;
  amount?: { value: number; currency: string };
  href?: string;
}

/** Newest first, at most `limit`, whatever kind each is. */
export const latestActivity = (items: Activity[], limit = 8): Activity[] => [...items].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
