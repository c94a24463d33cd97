import type { Frequency } from '../catalog/records';
import { ApiError } from '../platform/errors';
import { toCents, toMajor } from '../platform/money';
import type { Plan } from '../platform/plans';
import { planAtLeast } from '../platform/plans';
import type { FinalAction, OfferRetention, RecoveryCase, SaveFlow, SubscriberRetention } from './records';

/** Days after the first failure of a renewal on which recovery tries it again (the sandbox's schedule). */
export const RECOVERY_RETRY_DAYS = [1, 3, 6] as const;
/** One day after the last retry, an unpaid renewal gets the final action. */
export const FINAL_ACTION_DAY = 7;
export const REQUIRED_PLAN: Plan = 'tier3';
const DAY_MS = 24 * 3600 * 1000;

export const FINAL_ACTIONS: FinalAction[] = ['cancel', 'pause', 'keep'];

/** When recovery of a renewal that first failed at `firstFailure` retries, and when it ends. */
export function recoverySchedule(firstFailure: Date): { retries: Date[]; finalActionAt: Date } {
  return {
    retries: RECOVERY_RETRY_DAYS.map((d) => new Date(firstFailure.getTime() + d * DAY_MS)),
    finalActionAt: new Date(firstFailure.getTime() + FINAL_ACTION_DAY * DAY_MS),
  };
}

export const invalidConfig = (field: string, message: string) => new ApiError(400, `${field}: ${message}`, { code: 'INVALID_RETENTION_CONFIG', field });

export const DEFAULT_OFFER_RETENTION = (offerId: string): OfferRetention => ({
  offerId,
  saveOffers: { enabled: false, pauseMaxMonths: 3, discountPercent: 20, discountMonths: 3 },
  intro: { enabled: false, price: null, periods: 1 },
  yearlySwitch: { enabled: false, afterPayments: 3, percentOff: 15 },
  updatedAt: null,
});

type OfferFacts = { priceCents: number; frequency: Frequency; trialPeriod?: number };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bool(group: Record<string, unknown>, name: string, field: string, current: boolean): boolean {
  const v = group[name];
  if (v === undefined) return current;
  if (typeof v !== 'boolean') throw invalidConfig(field, 'must be true or false');
  return v;
}

function int(group: Record<string, unknown>, name: string, field: string, current: number, min: number, max: number): number {
  const v = group[name];
  if (v === undefined) return current;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalidConfig(field, `must be a whole number from ${min} to ${max}`);
  if (v < min || v > max) throw invalidConfig(field, `must be from ${min} to ${max}`);
  return v;
}

/**
 * The offer's retention settings after a PUT: each group given replaces the fields it names, and
 * the result is checked as a whole against the spec's ranges and the offer (intro price below the
 * regular price and not with a trial; yearly switch on monthly offers only). The first violation
 * answers 400 INVALID_RETENTION_CONFIG naming its field.
 */
export function applyOfferConfig(current: OfferRetention, body: unknown, offer: OfferFacts): OfferRetention {
  if (!isObj(body)) throw invalidConfig('body', 'must be an object with saveOffers, intro and/or yearlySwitch');
  for (const key of Object.keys(body))
    if (!['saveOffers', 'intro', 'yearlySwitch'].includes(key)) throw invalidConfig(key, 'is not a retention setting (saveOffers, intro, yearlySwitch)');
  const next: OfferRetention = structuredClone(current);
  if (body.saveOffers !== undefined) {
    const g = body.saveOffers;
    if (!isObj(g)) throw invalidConfig('saveOffers', 'must be an object');
    next.saveOffers = {
      enabled: bool(g, 'enabled', 'saveOffers.enabled', current.saveOffers.enabled),
      pauseMaxMonths: int(g, 'pauseMaxMonths', 'saveOffers.pauseMaxMonths', current.saveOffers.pauseMaxMonths, 1, 3),
      discountPercent: int(g, 'discountPercent', 'saveOffers.discountPercent', current.saveOffers.discountPercent, 5, 90),
      discountMonths: int(g, 'discountMonths', 'saveOffers.discountMonths', current.saveOffers.discountMonths, 1, 12),
    };
  }
  if (body.intro !== undefined) {
    const g = body.intro;
    if (!isObj(g)) throw invalidConfig('intro', 'must be an object');
    let price = current.intro.price;
    if (g.price !== undefined) {
      if (g.price === null) price = null;
      else if (typeof g.price !== 'number' || !Number.isFinite(g.price))
        throw invalidConfig('intro.price', 'must be a number in major units (for example 9.99)');
      else if (Math.abs(g.price * 100 - Math.round(g.price * 100)) > 1e-6) throw invalidConfig('intro.price', 'at most two decimals');
      else price = g.price;
    }
    next.intro = {
      enabled: bool(g, 'enabled', 'intro.enabled', current.intro.enabled),
      price,
      periods: int(g, 'periods', 'intro.periods', current.intro.periods, 1, 12),
    };
  }
  if (body.yearlySwitch !== undefined) {
    const g = body.yearlySwitch;
    if (!isObj(g)) throw invalidConfig('yearlySwitch', 'must be an object');
    next.yearlySwitch = {
      enabled: bool(g, 'enabled', 'yearlySwitch.enabled', current.yearlySwitch.enabled),
      afterPayments: int(g, 'afterPayments', 'yearlySwitch.afterPayments', current.yearlySwitch.afterPayments, 1, 24),
      percentOff: int(g, 'percentOff', 'yearlySwitch.percentOff', current.yearlySwitch.percentOff, 1, 50),
    };
  }
  // Whole-record rules, checked on what an enabled feature would run with.
  if (next.intro.enabled) {
    if (next.intro.price === null) throw invalidConfig('intro.price', 'is required to turn intro pricing on');
    if (next.intro.price < 1) throw invalidConfig('intro.price', 'must be at least 1.00');
    if (toCents(next.intro.price) >= offer.priceCents)
      throw invalidConfig('intro.price', `must be lower than the regular price ${toMajor(offer.priceCents).toFixed(2)}`);
    if (offer.trialPeriod) throw invalidConfig('intro.price', 'cannot be combined with a free trial');
  }
  if (next.yearlySwitch.enabled && offer.frequency !== 'monthly') throw invalidConfig('yearlySwitch.enabled', 'the yearly switch is for monthly offers only');
  return next;
}

/** True when the body turns any feature on (the Pro gate; switching off and reading stay open). */
export function turnsOn(body: unknown): boolean {
  if (!isObj(body)) return false;
  if (body.enabled === true) return true;
  return ['saveOffers', 'intro', 'yearlySwitch'].some((g) => isObj(body[g]) && (body[g] as Record<string, unknown>).enabled === true);
}

export const discountedCents = (priceCents: number, percent: number) => Math.round((priceCents * (100 - percent)) / 100);

/** A subscriber takes one save offer per offer: a pause or a discount taken (or a discount recorded before `saved` existed). */
export const saveOfferTaken = (row: Pick<SubscriberRetention, 'saved' | 'discount'> | undefined) => Boolean(row?.saved || row?.discount);

/**
 * What the next renewal charges as retention set it, or null when retention changed nothing (the
 * portal then shows the regular charge): a save discount while payments at it remain, then the
 * regular price it replaced; an intro price while its renewals remain. The discount replaced any
 * intro override (the processor keeps one override), so it wins.
 */
export function upcomingChargeCents(row: Pick<SubscriberRetention, 'discount' | 'intro' | 'payments'> | undefined, regularCents: number): number | null {
  if (!row) return null;
  const paid = row.payments ?? 0;
  if (row.discount && row.discount.fromPayments !== undefined) {
    const left = row.discount.payments - (paid - row.discount.fromPayments);
    return left > 0 ? discountedCents(regularCents, row.discount.percent) : regularCents;
  }
  // Intro: the first payment is the checkout's; renewals 1..periods are at the intro price.
  if (!row.discount && row.intro && paid >= 1 && paid - 1 < row.intro.periods) return row.intro.amountCents;
  return null;
}
export const yearlyCents = (monthlyCents: number, percentOff: number) => Math.round((monthlyCents * 12 * (100 - percentOff)) / 100);

export interface MoneyRow {
  currency: string;
  amount: number;
  count: number;
}

/** Per-currency totals in major units, never summed across currencies; sorted by currency. */
export function perCurrency(cases: Pick<RecoveryCase, 'currency' | 'amountCents'>[]): MoneyRow[] {
  const byCurrency = new Map<string, { cents: number; count: number }>();
  for (const c of cases) {
    const cur = c.currency.toUpperCase();
    const row = byCurrency.get(cur) ?? { cents: 0, count: 0 };
    row.cents += c.amountCents;
    row.count += 1;
    byCurrency.set(cur, row);
  }
  return [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, r]) => ({ currency, amount: toMajor(r.cents), count: r.count }));
}

/**
 * The recovery summary of the cases started in the window: recovered and still at risk per
 * currency, lost (closed by the final action) as a count, and the recovery rate as the percent of
 * settled cases (recovered + lost) that were recovered, one decimal; 0 when none has settled.
 */
export function recoverySummary(cases: RecoveryCase[], days: number, plan: Plan) {
  const recovered = cases.filter((c) => c.status === 'recovered');
  const open = cases.filter((c) => c.status === 'open');
  const lost = cases.filter((c) => c.status === 'closed');
  const settled = recovered.length + lost.length;
  return {
    days,
    recovered: perCurrency(recovered),
    recoveredCount: recovered.length,
    atRisk: perCurrency(open),
    atRiskCount: open.length,
    lostCount: lost.length,
    recoveryRate: settled ? Math.round((recovered.length / settled) * 1000) / 10 : 0,
    entitlement: { allowed: planAtLeast(plan, REQUIRED_PLAN), requiredPlan: REQUIRED_PLAN },
  };
}

/**
 * The save-offers report of the flows in the window: saved subscriptions (pause or discount),
 * declined ones, the save rate in percent, the reasons buyers gave, and the 20 latest flows.
 */
export function saveReport(flows: SaveFlow[], days: number) {
  const saved = flows.filter((f) => f.kind !== 'declined');
  const reasons = new Map<string, number>();
  for (const f of flows) reasons.set(f.reason ?? 'not given', (reasons.get(f.reason ?? 'not given') ?? 0) + 1);
  return {
    days,
    flowsCount: flows.length,
    savedCount: saved.length,
    saved: { pause: saved.filter((f) => f.kind === 'pause').length, discount: saved.filter((f) => f.kind === 'discount').length },
    canceledCount: flows.length - saved.length,
    saveRate: flows.length ? Math.round((saved.length / flows.length) * 1000) / 10 : 0,
    reasons: [...reasons.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, count]) => ({ reason, count })),
    recentFlows: [...flows]
      .sort((a, b) => b._id.localeCompare(a._id))
      .slice(0, 20)
      .map((f) => ({
        id: f._id,
        subscriptionCustomerId: f.subscriberId,
        subscriptionId: f.offerId,
        outcome: f.kind,
        months: f.months,
        percent: f.percent,
        reason: f.reason,
        createdAt: f.createdAt,
      })),
  };
}
