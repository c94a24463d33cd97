import { badRequest } from '../platform/errors';

/**
 * Pure rules of usage and seat billing: the pricing's ranges, overage per meter, seat-periods and
 * the charge's retry schedule. The service reads and writes; these say what the numbers are.
 */

export const MAX_METERS = 5;
export const MAX_SEATS = 10_000;
export const MAX_UNIT_PRICE_CENTS = 100_000_000;
export const MAX_INCLUDED_UNITS = 1_000_000_000;
/** Retries of a failed period charge, in days after the first failure; then `uncollectible`. */
export const CHARGE_RETRY_DAYS = [1, 3, 5, 7] as const;
export const REPORTS_PER_MINUTE = 300;
export const MAX_QUANTITY = 1_000_000_000;
const DAY_MS = 86_400_000;

export interface SeatPricing {
  enabled: boolean;
  unitPriceCents: number;
  minimum: number;
  maximum: number;
}
export interface Meter {
  key: string;
  name: string;
  unitPriceCents: number;
  includedUnits: number;
}
export interface Pricing {
  seats: SeatPricing;
  meters: Meter[];
}

const FLAT_SEATS: SeatPricing = { enabled: false, unitPriceCents: 0, minimum: 1, maximum: 1 };
export const FLAT_PRICING: Pricing = { seats: FLAT_SEATS, meters: [] };

export const isUsagePriced = (p: Pricing | undefined) => Boolean(p && (p.seats.enabled || p.meters.length > 0));

const fail = (field: string, message: string) => badRequest(`${field}: ${message}`, { code: 'INVALID_USAGE_PRICING', field });

function integer(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw fail(field, 'must be an integer');
  if (value < min || value > max) throw fail(field, `must be between ${min} and ${max}`);
  return value;
}

/**
 * Checks a `{ seats, meters }` body field by field and answers the stored pricing; the first
 * violation is a 400 whose `field` names the path (`meters[1].includedUnits`). Seats disabled
 * need no other field: that part is flat.
 */
export function parsePricing(body: unknown): Pricing {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail('body', 'must be an object { seats, meters }');
  const { seats, meters } = body as { seats?: unknown; meters?: unknown };
  if (typeof seats !== 'object' || seats === null || Array.isArray(seats))
    throw fail('seats', 'must be an object { enabled, unitPriceCents, minimum, maximum }');
  const s = seats as Record<string, unknown>;
  if (typeof s.enabled !== 'boolean') throw fail('seats.enabled', 'must be true or false');
  let parsedSeats = FLAT_SEATS;
  if (s.enabled) {
    const unitPriceCents = integer(s.unitPriceCents, 'seats.unitPriceCents', 0, MAX_UNIT_PRICE_CENTS);
    const minimum = integer(s.minimum, 'seats.minimum', 1, MAX_SEATS);
    const maximum = integer(s.maximum, 'seats.maximum', 1, MAX_SEATS);
    if (maximum < minimum) throw fail('seats.maximum', 'must be at least seats.minimum');
    parsedSeats = { enabled: true, unitPriceCents, minimum, maximum };
  }
  if (!Array.isArray(meters)) throw fail('meters', 'must be an array of meters (empty for none)');
  if (meters.length > MAX_METERS) throw fail('meters', `at most ${MAX_METERS} meters per offer`);
  const seen = new Set<string>();
  const parsedMeters = meters.map((m, i): Meter => {
    const at = `meters[${i}]`;
    if (typeof m !== 'object' || m === null || Array.isArray(m)) throw fail(at, 'must be an object { key, name, unitPriceCents, includedUnits }');
    const r = m as Record<string, unknown>;
    if (typeof r.key !== 'string' || !/^[a-z][a-z0-9_]{0,39}$/.test(r.key))
      throw fail(`${at}.key`, 'must be 1 to 40 lowercase letters, digits or underscores, starting with a letter');
    if (seen.has(r.key)) throw fail(`${at}.key`, `duplicates meter "${r.key}"`);
    seen.add(r.key);
    if (typeof r.name !== 'string' || r.name.trim().length === 0 || r.name.length > 100) throw fail(`${at}.name`, 'must be 1 to 100 characters');
    return {
      key: r.key,
      name: r.name.trim(),
      unitPriceCents: integer(r.unitPriceCents, `${at}.unitPriceCents`, 0, MAX_UNIT_PRICE_CENTS),
      includedUnits: integer(r.includedUnits ?? 0, `${at}.includedUnits`, 0, MAX_INCLUDED_UNITS),
    };
  });
  return { seats: parsedSeats, meters: parsedMeters };
}

/** The pricing an offer carries (catalog keeps it loosely; anything malformed counts as flat). */
export function pricingOf(stored: unknown): Pricing {
  try {
    return parsePricing(stored);
  } catch {
    return FLAT_PRICING;
  }
}

export interface MeterCharge {
  key: string;
  name: string;
  quantity: number;
  includedUnits: number;
  overageUnits: number;
  unitPriceCents: number;
  amountCents: number;
}

/** Overage of each meter: units above `includedUnits`, at `unitPriceCents` each. */
export function meterCharges(meters: Meter[], totals: Record<string, number>): MeterCharge[] {
  return meters.map((m) => {
    const quantity = totals[m.key] ?? 0;
    const overageUnits = Math.max(0, quantity - m.includedUnits);
    return {
      key: m.key,
      name: m.name,
      quantity,
      includedUnits: m.includedUnits,
      overageUnits,
      unitPriceCents: m.unitPriceCents,
      amountCents: overageUnits * m.unitPriceCents,
    };
  });
}

/** A seat count that held from `at` until the next change (or the period's end). */
export interface SeatSegment {
  at: string;
  quantity: number;
}

/**
 * Seat-periods above the seats bought at checkout: each extra seat counts for the share of the
 * period it was held (two extra seats for 80 % of the period = 1.6). Rounded to 4 decimals.
 */
export function extraSeatPeriods(segments: SeatSegment[], purchased: number, periodStart: string, periodEnd: string): number {
  const start = Date.parse(periodStart);
  const end = Date.parse(periodEnd);
  const length = end - start;
  if (!(length > 0)) return 0;
  const sorted = [...segments].sort((a, b) => a.at.localeCompare(b.at));
  let total = 0;
  sorted.forEach((segment, i) => {
    const from = Math.max(start, Date.parse(segment.at));
    const to = Math.min(end, i + 1 < sorted.length ? Date.parse(sorted[i + 1]!.at) : end);
    if (to > from) total += Math.max(0, segment.quantity - purchased) * ((to - from) / length);
  });
  return Math.round(total * 10_000) / 10_000;
}

export const seatChargeCents = (seatPeriods: number, unitPriceCents: number) => Math.round(seatPeriods * unitPriceCents);

/** The checkout amount of an offer with seats: the offer's price plus each seat bought. */
export const checkoutAmountCents = (priceCents: number, seats: SeatPricing, quantity: number) =>
  priceCents + (seats.enabled ? quantity * seats.unitPriceCents : 0);

/** The seats a checkout buys: the asked quantity within the offer's range, the minimum by default. */
export function checkoutSeats(seats: SeatPricing, quantity: number | undefined): number | undefined {
  if (!seats.enabled) {
    if (quantity !== undefined) throw badRequest('quantity: this offer is not sold per seat', { field: 'quantity' });
    return undefined;
  }
  const q = quantity ?? seats.minimum;
  if (q < seats.minimum || q > seats.maximum) throw badRequest(`quantity: must be between ${seats.minimum} and ${seats.maximum}`, { field: 'quantity' });
  return q;
}

export type ChargeStatus = 'not_due' | 'processing' | 'paid' | 'failed' | 'due' | 'uncollectible';

/**
 * After the first failure at `firstFailedAt` and `retries` retries (0 after the first failure),
 * when the next attempt is due; null when none is left (the charge becomes `uncollectible`).
 */
export function nextRetryAt(firstFailedAt: string, retries: number): string | null {
  const days = CHARGE_RETRY_DAYS[retries];
  return days === undefined ? null : new Date(Date.parse(firstFailedAt) + days * DAY_MS).toISOString();
}

/** The UTC day of an instant. */
export const dayOf = (iso: string) => iso.slice(0, 10);

/** The body a report's idempotency key stands for: a retry with another body is refused. */
export const reportFingerprint = (meter: string, quantity: number) => `${meter}\n${quantity}`;

// ---- folding reports into day counters ----

/**
 * A report is written within this many seconds of the time in its id: the request path mints the
 * id, then makes one PutItem, and the API function times out after 29 s. Reports whose id is older
 * than this are settled: no report with a lower id can still appear. Counters fold settled reports
 * only, so a fold never passes a report that commits later.
 */
export const REPORT_SETTLE_SECONDS = 60;
/** A subscriber's reports are folded at most about once per this many seconds (amortises the write). */
export const FOLD_EVERY_SECONDS = 60;
/** Most day counters one fold writes (a transaction holds at most 100 items, one is the fold state). */
export const MAX_FOLD_GROUPS = 50;

/** The sort-key bound below which report ids are settled at `nowMs` (ids start with 8 hex digits of seconds). */
export const settledBound = (nowMs: number) =>
  Math.max(0, Math.floor(nowMs / 1000) - REPORT_SETTLE_SECONDS)
    .toString(16)
    .padStart(8, '0');

export interface FoldableReport {
  _id: string;
  meter: string;
  quantity: number;
  periodStart: string;
  createdAt: string;
}

export interface DayGroup {
  periodStart: string;
  day: string;
  totals: Record<string, number>;
}

/**
 * Sums reports (ascending ids) per (period, day) and meter, stopping before a report that would
 * open more than `maxGroups` groups; `through` is the last id folded (undefined: none).
 */
export function groupReports(reports: FoldableReport[], maxGroups = MAX_FOLD_GROUPS): { groups: DayGroup[]; through: string | undefined } {
  const groups = new Map<string, DayGroup>();
  let through: string | undefined;
  for (const r of reports) {
    const day = r.createdAt.slice(0, 10);
    const key = `${r.periodStart}#${day}`;
    let group = groups.get(key);
    if (!group) {
      if (groups.size >= maxGroups) break;
      group = { periodStart: r.periodStart, day, totals: {} };
      groups.set(key, group);
    }
    group.totals[r.meter] = (group.totals[r.meter] ?? 0) + r.quantity;
    through = r._id;
  }
  return { groups: [...groups.values()], through };
}

/** Day counters of a period plus its reports not folded yet: per-day series, ascending by day. */
export function addUnfolded(days: { day: string; totals: Record<string, number> }[], unfolded: FoldableReport[], periodStart: string) {
  const byDay = new Map(days.map((d) => [d.day, { day: d.day, totals: { ...d.totals } }]));
  for (const r of unfolded) {
    if (r.periodStart !== periodStart) continue;
    const day = r.createdAt.slice(0, 10);
    const entry = byDay.get(day) ?? { day, totals: {} };
    entry.totals[r.meter] = (entry.totals[r.meter] ?? 0) + r.quantity;
    byDay.set(day, entry);
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}
