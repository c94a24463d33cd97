import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { presentPeriod, reportEventData } from './events';
import { lookupOffer, updateOffer, type CatalogCtx } from '../catalog/service';
import type { OfferRecord } from '../catalog/records';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { newEvent } from '../platform/events';
import { objectId } from '../platform/ids';
import { reply } from '../platform/operation';
import { activityInOwnRecord } from '../platform/activity';
import { consumeRequest } from '../platform/rate-limit';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { findSubscriberByAnyId } from '../subscriptions/lookups';
import type { SubscriberRecord } from '../subscriptions/records';
import type { SeatsRecord, UsageReportRecord } from './records';
import * as repo from './repository';
import {
  checkoutSeats,
  extraSeatPeriods,
  isUsagePriced,
  meterCharges,
  parsePricing,
  pricingOf,
  REPORTS_PER_MINUTE,
  REPORT_SETTLE_SECONDS,
  FOLD_EVERY_SECONDS,
  addUnfolded,
  groupReports,
  settledBound,
  reportFingerprint,
  seatChargeCents,
  type Pricing,
  type SeatSegment,
} from './rules';

export const JOB_CLOSE_PERIOD = 'usage.close_period';
export const JOB_RETRY_CHARGE = 'usage.retry_charge';
const closeTimer = (subscriberId: string, periodEnd: string) => `usage-close-${subscriberId}-${Date.parse(periodEnd)}`;

const inactive = () => conflict('The subscription is not active', 'SUBSCRIPTION_INACTIVE');
const isActive = (sub: SubscriberRecord) => sub.status === 'active' || sub.status === 'trialing' || sub.status === 'past_due';

async function subscriberAndPricing(
  deps: Deps,
  scope: Scope,
  id: string,
): Promise<{ sub: SubscriberRecord; offer: OfferRecord | undefined; pricing: Pricing }> {
  const sub = await findSubscriberByAnyId(deps, scope, id);
  if (!sub) throw notFound('Subscriber');
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  return { sub, offer, pricing: pricingOf(offer?.usagePricing) };
}

// ---- pricing ----

/** The plan a pricing body needs: Pro to turn usage billing on; flat pricing is always allowed. */
export function pricingPlan(body: unknown) {
  try {
    return isUsagePriced(parsePricing(body)) ? ('tier3' as const) : undefined;
  } catch {
    // The handler answers the 400 with the field; the plan gate does not hide it.
    return undefined;
  }
}

/** `PUT /subscriptions/{id}/usage-pricing`: replaces the offer's seats and meters (catalog stores them). */
export async function updateUsagePricing(ctx: OperationContext, offerId: string, body: unknown) {
  const pricing = parsePricing(body);
  const offer = await lookupOffer(ctx, ctx.scope, offerId);
  if (!offer || offer.deletedAt) throw notFound('Subscription');
  const view = await updateOffer(ctx as CatalogCtx, offerId, { usagePricing: pricing } as never);
  return { _id: view._id, usagePricing: pricing, usageBilling: isUsagePriced(pricing) };
}

// ---- reports ----

const present = (report: UsageReportRecord, replayed: boolean) => ({ ...report, replayed });

/** The period a report made now counts in: the subscriber's, or the next when its end has passed. */
function periodStartAt(sub: SubscriberRecord, nowIso: string): string {
  if (!sub.currentPeriodStart || !sub.currentPeriodEnd) throw inactive();
  // The renewal that moves the period may not be recorded yet: the new period starts at the old end.
  return nowIso >= sub.currentPeriodEnd ? sub.currentPeriodEnd : sub.currentPeriodStart;
}

async function replay(deps: Deps, scope: Scope, subscriberId: string, key: string, fingerprint: string) {
  const held = await repo.getKey(deps.store, scope, subscriberId, key);
  if (!held) return undefined;
  if (held.fingerprint !== fingerprint) throw conflict('This Idempotency-Key was already used with a different body; use a new key', 'IDEMPOTENCY_KEY_REUSED');
  return reply(200, present(held.report, true));
}

/**
 * `POST /subscriptions/{id}/usage`. Without a key every request counts: one PutItem of the report,
 * which carries its `usage.recorded` event. With a key the report and the key's guard are one
 * transaction whose guard is put only if absent: of racing retries one commits, the others fail the
 * condition (or conflict) and replay the winner's record. The day counters are not written here:
 * `foldReports` adds settled reports to them later, and reads add the reports not folded yet.
 */
export async function reportUsage(ctx: OperationContext, id: string, body: { meter: string; quantity: number }, idempotencyKey: string | undefined) {
  const { scope } = ctx;
  if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces', { field: 'Idempotency-Key' });
  }
  const { sub, pricing } = await subscriberAndPricing(ctx, scope, id);
  const fingerprint = reportFingerprint(body.meter, body.quantity);
  if (idempotencyKey) {
    const replayed = await replay(ctx, scope, sub._id, idempotencyKey, fingerprint);
    if (replayed) return replayed;
  }
  if (!pricing.meters.some((m) => m.key === body.meter)) {
    throw badRequest(`meter: "${body.meter}" is not a meter of this subscription (${pricing.meters.map((m) => m.key).join(', ') || 'none'})`, {
      field: 'meter',
    });
  }
  if (!isActive(sub)) throw inactive();
  // Per subscriber, inside the account's limit (already taken by the request itself).
  await consumeRequest(ctx, `usage#${scope.accountId}#${scope.mode}#${sub._id}`, REPORTS_PER_MINUTE);
  const now = ctx.clock.now().toISOString();
  const report: UsageReportRecord = {
    _id: objectId(ctx.clock),
    subscriberId: sub._id,
    subscriptionId: sub.subscriptionId,
    meter: body.meter,
    quantity: body.quantity,
    periodStart: periodStartAt(sub, now),
    idempotencyKey: idempotencyKey ?? null,
    createdAt: now,
  };
  const event = newEvent(scope, ctx.clock, 'usage.recorded', reportEventData(report));
  if (!idempotencyKey) {
    // One PutItem of one small item: the report carries its event and who made it (it is its own
    // activity record); the counters fold later.
    await repo.putReport(ctx.store, scope, report, event, activityInOwnRecord(ctx));
    return reply(201, present(report, false));
  }
  try {
    await ctx.store.transact(repo.keyedReportWrites(scope, report, event, fingerprint, Math.floor(ctx.clock.nowMs() / 1000)));
  } catch (error) {
    const lost =
      isConditionFailed(error) || (error instanceof TransactionCanceledException && error.CancellationReasons?.some((r) => r.Code === 'TransactionConflict'));
    if (lost) {
      const replayed = await replay(ctx, scope, sub._id, idempotencyKey, fingerprint);
      if (replayed) return replayed;
    }
    throw error;
  }
  return reply(201, present(report, false));
}

// ---- seats ----

/** Seats a subscriber holds during `periodStart`, starting from the record as stored. */
export function segmentsFor(seats: SeatsRecord, periodStart: string): SeatSegment[] {
  return seats.periodStart === periodStart ? seats.segments : [{ at: periodStart, quantity: seats.quantity }];
}

/** The seats record a subscriber of a seat offer has (a subscriber from before seats were on holds the minimum). */
export function seatsOrDefault(found: SeatsRecord | undefined, sub: SubscriberRecord, pricing: Pricing, now: string): SeatsRecord {
  if (found) return found;
  const start = sub.currentPeriodStart ?? now;
  return {
    subscriberId: sub._id,
    purchased: pricing.seats.minimum,
    quantity: pricing.seats.minimum,
    periodStart: start,
    segments: [{ at: start, quantity: pricing.seats.minimum }],
    updatedAt: '',
  };
}

/** `POST /subscriptions/{id}/seats`: applies at once; seats above those bought are billed at period end. */
export async function changeSeats(ctx: OperationContext, id: string, quantity: number) {
  const { scope } = ctx;
  const { sub, pricing } = await subscriberAndPricing(ctx, scope, id);
  if (!pricing.seats.enabled) throw badRequest('quantity: this subscription is not sold per seat', { field: 'quantity' });
  if (!isActive(sub)) throw inactive();
  if (quantity < pricing.seats.minimum || quantity > pricing.seats.maximum) {
    throw badRequest(`quantity: must be between ${pricing.seats.minimum} and ${pricing.seats.maximum}`, { field: 'quantity' });
  }
  const now = ctx.clock.now().toISOString();
  const found = await repo.getSeats(ctx.store, scope, sub._id);
  const before = seatsOrDefault(found, sub, pricing, now);
  if (quantity < before.purchased) {
    throw conflict(`quantity: ${quantity} is below the ${before.purchased} seats bought at checkout`, 'BELOW_PURCHASED_SEATS', { purchased: before.purchased });
  }
  const periodStart = sub.currentPeriodStart ?? now;
  const after: SeatsRecord = { ...before, quantity, periodStart, segments: [...segmentsFor(before, periodStart), { at: now, quantity }], updatedAt: now };
  const op = found ? repo.seatsReplace(scope, found, after) : { ...repo.seatsPut(scope, after), condition: 'attribute_not_exists(PK)' };
  try {
    await ctx.store.transact([op]);
  } catch (error) {
    if (isConditionFailed(error)) throw conflict('The seats changed at the same time; read them again and retry', 'CONCURRENT_UPDATE');
    throw error;
  }
  return {
    subscriptionCustomerId: sub._id,
    purchased: after.purchased,
    quantity,
    minimum: pricing.seats.minimum,
    maximum: pricing.seats.maximum,
    unitPriceCents: pricing.seats.unitPriceCents,
  };
}

/** For checkout: the seats an offer's session buys (undefined when the offer is not sold per seat). */
export async function seatsForCheckout(deps: Pick<Deps, 'store'>, offer: OfferRecord, quantity: number | undefined) {
  const pricing = pricingOf(offer.usagePricing);
  const seats = checkoutSeats(pricing.seats, quantity);
  return seats === undefined ? undefined : { quantity: seats, unitPriceCents: pricing.seats.unitPriceCents };
}

/** For checkout's fulfilment: the seats record of a new subscriber, in the fulfilment's transaction. */
export function initialSeatsPut(scope: Scope, subscriberId: string, quantity: number, periodStart: string, now: string): TransactOp {
  return repo.seatsPut(scope, { subscriberId, purchased: quantity, quantity, periodStart, segments: [{ at: periodStart, quantity }], updatedAt: now });
}

// ---- reads ----

export function sumTotals(days: repo.DayCounters[]) {
  const totals: Record<string, number> = {};
  for (const day of days) for (const [meter, q] of Object.entries(day.totals)) totals[meter] = (totals[meter] ?? 0) + q;
  return totals;
}

/**
 * A period's per-day usage: its day counters plus the reports not folded into them yet. The fold
 * state is read before and after the counters; a fold committing in between moves it, and the read
 * starts again (folds are at most about one a minute per subscriber, so this settles at once).
 */
export async function periodUsage(deps: Pick<Deps, 'store'>, scope: Scope, sub: string, periodStart: string): Promise<repo.DayCounters[]> {
  for (let attempt = 0; ; attempt++) {
    const before = await repo.getFoldState(deps.store, scope, sub);
    const days = await repo.periodDays(deps.store, scope, sub, periodStart);
    const after = await repo.getFoldState(deps.store, scope, sub);
    if ((before?.through ?? '') !== (after?.through ?? '') && attempt < 5) continue;
    const unfolded = await repo.reportsBetween(deps.store, scope, sub, { after: after?.through ?? '' });
    return addUnfolded(days, unfolded, periodStart);
  }
}

/**
 * Folds a subscriber's settled reports (ids older than REPORT_SETTLE_SECONDS) into its day
 * counters: one ADD per (period, day) for the whole batch and the moved fold state, one
 * transaction guarded by the state read. Unless `force`, skipped while the last fold is younger
 * than FOLD_EVERY_SECONDS, so a busy subscriber pays one fold a minute, not one per report.
 */
export async function foldReports(deps: Pick<Deps, 'store' | 'clock'>, scope: Scope, subscriberId: string, options: { force?: boolean } = {}): Promise<number> {
  const nowMs = deps.clock.nowMs();
  let folded = 0;
  for (let round = 0; round < 20; round++) {
    const state = await repo.getFoldState(deps.store, scope, subscriberId);
    if (!options.force && round === 0 && state && nowMs - Date.parse(state.foldedAt) < FOLD_EVERY_SECONDS * 1000) return 0;
    const bound = settledBound(nowMs);
    if ((state?.through ?? '') >= bound) return folded;
    const reports = await repo.reportsBetween(deps.store, scope, subscriberId, { after: state?.through ?? '', before: bound, limit: 1000 });
    const { groups, through } = groupReports(reports);
    if (!through) return folded;
    const after: repo.FoldState = { subscriberId, through, foldedAt: new Date(nowMs).toISOString() };
    try {
      await deps.store.transact(repo.foldWrites(scope, subscriberId, state, after, groups));
    } catch (error) {
      // Another fold moved the state first: it folded these reports.
      if (
        isConditionFailed(error) ||
        (error instanceof TransactionCanceledException && error.CancellationReasons?.some((r) => r.Code === 'TransactionConflict'))
      )
        return folded;
      throw error;
    }
    folded += reports.findIndex((r) => r._id === through) + 1;
  }
  return folded;
}

/** `GET /subscriptions/{id}/usage`: open to every plan (readable after a downgrade). */
export async function getUsage(ctx: OperationContext, id: string, limit: number) {
  const { scope } = ctx;
  const { sub, offer, pricing } = await subscriberAndPricing(ctx, scope, id);
  const now = ctx.clock.now().toISOString();
  const periodStart = sub.currentPeriodStart ? periodStartAt(sub, now) : null;
  const periodEnd = sub.currentPeriodEnd && periodStart === sub.currentPeriodStart ? sub.currentPeriodEnd : null;
  const [days, reports, periods, seatsFound] = await Promise.all([
    periodStart ? periodUsage(ctx, scope, sub._id, periodStart) : Promise.resolve([]),
    repo.latestReports(ctx.store, scope, sub._id, limit),
    repo.latestPeriods(ctx.store, scope, sub._id, 12),
    repo.getSeats(ctx.store, scope, sub._id),
  ]);
  const totals = sumTotals(days);
  const meters = meterCharges(pricing.meters, totals);
  let seats = null;
  if (pricing.seats.enabled && periodStart) {
    const record = seatsOrDefault(seatsFound, sub, pricing, now);
    // Upcoming: the seats held so far, and the current count until the period ends.
    const end = periodEnd ?? now;
    const seatPeriods = extraSeatPeriods(segmentsFor(record, periodStart), record.purchased, periodStart, end);
    seats = {
      purchased: record.purchased,
      quantity: record.quantity,
      minimum: pricing.seats.minimum,
      maximum: pricing.seats.maximum,
      unitPriceCents: pricing.seats.unitPriceCents,
      extraSeatPeriods: seatPeriods,
      amountCents: seatChargeCents(seatPeriods, pricing.seats.unitPriceCents),
    };
  }
  const overageCents = meters.reduce((a, m) => a + m.amountCents, 0) + (seats?.amountCents ?? 0);
  return {
    subscriptionCustomerId: sub._id,
    subscriptionId: sub.subscriptionId,
    usagePricing: pricing,
    currentPeriod: { periodStart, periodEnd, totals, meters, seats, upcomingOverageCents: overageCents, currency: offer?.currency ?? null },
    days: days.map((d) => ({ day: d.day, totals: d.totals })),
    reports: reports.map((r) => present(r, false)),
    periods: periods.map(presentPeriod),
  };
}

// ---- period close and its charge ----

/** Schedules the close of the subscriber's current period (one timer per period, named by its end). */
export async function schedulePeriodClose(deps: Deps, scope: Scope, subscriberId: string): Promise<void> {
  const sub = await findSubscriberByAnyId(deps, scope, subscriberId);
  if (!sub?.currentPeriodStart || !sub.currentPeriodEnd || sub.status === 'canceled') return;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  if (!isUsagePriced(pricingOf(offer?.usagePricing))) return;
  // After the period's last report has settled (see REPORT_SETTLE_SECONDS).
  await deps.ports.scheduler.schedule(closeTimer(sub._id, sub.currentPeriodEnd), new Date(Date.parse(sub.currentPeriodEnd) + REPORT_SETTLE_SECONDS * 1000), {
    type: JOB_CLOSE_PERIOD,
    scope,
    payload: { subscriberId: sub._id, periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd },
  });
}
