/**
 * Pure rules of the analytics rollups: which day and write shard an event lands on, what a
 * subscriber adds to monthly recurring revenue, and how shard items sum into the answer.
 */
import { badRequest } from '../platform/errors';

/**
 * Write shards per rollup. A launch writes one day item per sale; spread over 4 items (and 4
 * partitions) no item takes more than a quarter of the day's writes, so the per-item ceiling
 * (~1,000 WCU/s, 2 WCU per transactional write) is reached only past ~2,000 sales a second, twice
 * the goal of 1,000 checkouts a second per account. The read sums the shards: 4 parallel queries
 * of at most 366 small items each, and one batch read; more shards would cost every read more
 * round trips for headroom no launch needs.
 */
export const WRITE_SHARDS = 4;

/** The longest range the summary answers (a leap year). */
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A stable shard for an id (FNV-1a): a redelivered event or a subscriber always lands on the same item. */
export function shardOf(id: string, shards = WRITE_SHARDS): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % shards;
}

/** The UTC day (YYYY-MM-DD) of an ISO time or a Date. */
export const dayOf = (at: string | Date): string => (typeof at === 'string' ? new Date(at) : at).toISOString().slice(0, 10);

/** Parses a calendar date, refusing what is not one (2026-02-30 included). */
export function parseDay(value: string, field: string): number {
  const match = DATE.exec(value);
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw badRequest(`${field} must be a date as YYYY-MM-DD`, { field });
  return ms;
}

/** The days from `from` to `to`, both included; at most MAX_RANGE_DAYS, `from` not after `to`. */
export function dayRange(from: string, to: string): string[] {
  const start = parseDay(from, 'from');
  const end = parseDay(to, 'to');
  if (end < start) throw badRequest('to must not be before from', { field: 'to' });
  const count = Math.round((end - start) / DAY_MS) + 1;
  if (count > MAX_RANGE_DAYS) throw badRequest(`The range covers at most ${MAX_RANGE_DAYS} days`, { field: 'to' });
  return Array.from({ length: count }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

// ---- money counters on a day item: one attribute per currency, so a store selling in several keeps them apart ----

export const grossField = (currency: string) => `gross_${currency.toUpperCase()}`;
export const refundsField = (currency: string) => `refunds_${currency.toUpperCase()}`;
export const salesField = (currency: string) => `sales_${currency.toUpperCase()}`;
export const mrrField = (currency: string) => `mrr_${currency.toUpperCase()}`;
/** Per product on a day item: its sales and gross in one currency, and its name as last sold. */
export const productGrossField = (productId: string, currency: string) => `pg_${currency.toUpperCase()}_${productId}`;
export const productSalesField = (productId: string, currency: string) => `ps_${currency.toUpperCase()}_${productId}`;
export const productNameField = (productId: string) => `pn_${productId}`;
/** Sales made through an abandoned-checkout mail's link (`order.completed` with `metadata.recovered`). */
export const recoveredField = (currency: string) => `recovered_${currency.toUpperCase()}`;
export const recoveredSalesField = (currency: string) => `recoveredSales_${currency.toUpperCase()}`;
export const NEW_SUBSCRIBERS = 'newSubscribers';
export const CHURNED_SUBSCRIBERS = 'churnedSubscribers';
export const ACTIVE_SUBSCRIBERS = 'activeSubscribers';

export interface DayFigures {
  date: string;
  grossCents: number;
  refundsCents: number;
  netCents: number;
  sales: number;
  /** Of the gross, what abandoned-checkout mails brought back, and how many sales. */
  recoveredCents: number;
  recoveredSales: number;
  newSubscribers: number;
  churnedSubscribers: number;
}

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** Sums the shard items of each day (items carry `date` and counters) into one row per day of the range. */
export function sumDays(days: string[], items: Record<string, unknown>[], currency: string): DayFigures[] {
  const byDay = new Map(
    days.map((date) => [
      date,
      { date, grossCents: 0, refundsCents: 0, netCents: 0, sales: 0, recoveredCents: 0, recoveredSales: 0, newSubscribers: 0, churnedSubscribers: 0 },
    ]),
  );
  for (const item of items) {
    const row = byDay.get(String(item.date));
    if (!row) continue;
    row.grossCents += num(item[grossField(currency)]);
    row.refundsCents += num(item[refundsField(currency)]);
    row.sales += num(item[salesField(currency)]);
    row.recoveredCents += num(item[recoveredField(currency)]);
    row.recoveredSales += num(item[recoveredSalesField(currency)]);
    row.newSubscribers += num(item[NEW_SUBSCRIBERS]);
    row.churnedSubscribers += num(item[CHURNED_SUBSCRIBERS]);
  }
  for (const row of byDay.values()) row.netCents = row.grossCents - row.refundsCents;
  return [...byDay.values()];
}

export function totalOf(days: DayFigures[]) {
  const totals = { grossCents: 0, refundsCents: 0, netCents: 0, sales: 0, recoveredCents: 0, recoveredSales: 0, newSubscribers: 0, churnedSubscribers: 0 };
  for (const day of days) {
    totals.grossCents += day.grossCents;
    totals.refundsCents += day.refundsCents;
    totals.netCents += day.netCents;
    totals.sales += day.sales;
    totals.recoveredCents += day.recoveredCents;
    totals.recoveredSales += day.recoveredSales;
    totals.newSubscribers += day.newSubscribers;
    totals.churnedSubscribers += day.churnedSubscribers;
  }
  return totals;
}

/** Sums the MRR shard items for one currency, and the active subscribers of every currency. */
export function sumRecurring(items: Record<string, unknown>[], currency: string): { mrrCents: number; activeSubscribers: number } {
  let mrrCents = 0;
  let activeSubscribers = 0;
  for (const item of items) {
    mrrCents += num(item[mrrField(currency)]);
    activeSubscribers += num(item[ACTIVE_SUBSCRIBERS]);
  }
  return { mrrCents, activeSubscribers };
}

// ---- top products: the per-product counters a sale adds, and the period's ranking ----

export interface SoldLine {
  productId: string;
  name: string;
  cents: number;
}

/** Product ids become attribute names: only the characters ids are made of. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What one sale adds per product (the lines of an upsell checkout, else its one product), and
 * the names to keep beside them. Ids that could not be attribute names are left out.
 */
export function productCounters(lines: SoldLine[], currency: string): { add: Record<string, number>; names: Record<string, string> } {
  const add: Record<string, number> = {};
  const names: Record<string, string> = {};
  for (const line of lines) {
    if (!SAFE_ID.test(line.productId)) continue;
    const gross = productGrossField(line.productId, currency);
    const sales = productSalesField(line.productId, currency);
    add[gross] = (add[gross] ?? 0) + line.cents;
    add[sales] = (add[sales] ?? 0) + 1;
    if (line.name) names[productNameField(line.productId)] = line.name.slice(0, 200);
  }
  return { add, names };
}

export interface TopProduct {
  productId: string;
  name: string;
  sales: number;
  grossCents: number;
}

/** The period's best sellers in one currency, by gross revenue then sales, from the day items read anyway. */
export function topProducts(items: Record<string, unknown>[], currency: string, limit = 5): TopProduct[] {
  const prefix = `pg_${currency.toUpperCase()}_`;
  const byId = new Map<string, TopProduct>();
  for (const item of items) {
    for (const [field, value] of Object.entries(item)) {
      if (!field.startsWith(prefix) || typeof value !== 'number') continue;
      const productId = field.slice(prefix.length);
      const row = byId.get(productId) ?? { productId, name: '', sales: 0, grossCents: 0 };
      row.grossCents += value;
      row.sales += num(item[productSalesField(productId, currency)]);
      const name = item[productNameField(productId)];
      if (typeof name === 'string' && name) row.name = name;
      byId.set(productId, row);
    }
  }
  return [...byId.values()].sort((a, b) => b.grossCents - a.grossCents || b.sales - a.sales || a.productId.localeCompare(b.productId)).slice(0, limit);
}

// ---- recurring revenue of one subscriber ----

const PER_MONTH: Record<string, (cents: number) => number> = {
  monthly: (cents) => cents,
  yearly: (cents) => Math.round(cents / 12),
  weekly: (cents) => Math.round((cents * 52) / 12),
};

/** Only `active` and `trialing` subscribers count as active and in recurring revenue (spec). */
export const countsAsActive = (status: string) => status === 'active' || status === 'trialing';

export interface Contribution {
  /** Counted among the active subscribers. */
  active: boolean;
  /** What it adds to MRR, in `currency`. */
  monthlyCents: number;
  currency: string;
}

/**
 * What one subscriber adds: what they actually pay per month. That is their latest recurring
 * charge (initial or renewal, so a checkout discount, an intro price or a save-offer discount
 * shows), or the offer's price while none is known (a trial). A subscriber whose collection is
 * paused pays nothing meanwhile, so adds no revenue whatever its status says.
 */
export function contributionOf(
  subscriber: { status: string; paused: boolean },
  offer: { priceCents: number; currency: string; frequency: string },
  lastCharge?: { amountCents: number; currency: string },
): Contribution {
  const active = countsAsActive(subscriber.status);
  const currency = (lastCharge?.currency ?? offer.currency).toUpperCase();
  if (!active || subscriber.paused) return { active, monthlyCents: 0, currency };
  const perMonth = PER_MONTH[offer.frequency] ?? PER_MONTH.monthly!;
  return { active, monthlyCents: perMonth(lastCharge?.amountCents ?? offer.priceCents), currency };
}

/** The counter changes that take a subscriber from one contribution to the next. */
export function contributionDelta(before: Contribution | undefined, after: Contribution): Record<string, number> {
  const delta: Record<string, number> = {};
  const add = (field: string, n: number) => {
    if (n) delta[field] = (delta[field] ?? 0) + n;
  };
  if (before) {
    add(mrrField(before.currency), -before.monthlyCents);
    add(ACTIVE_SUBSCRIBERS, before.active ? -1 : 0);
  }
  add(mrrField(after.currency), after.monthlyCents);
  add(ACTIVE_SUBSCRIBERS, after.active ? 1 : 0);
  for (const [field, n] of Object.entries(delta)) if (!n) delete delta[field];
  return delta;
}
