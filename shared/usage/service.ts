import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { periodEventData, presentPeriod, reportEventData } from './events';
import { lookupOffer, updateOffer, type CatalogCtx } from '../catalog/service';
import type { OfferRecord } from '../catalog/records';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import { objectId } from '../platform/ids';
import { reply } from '../platform/operation';
import { activityInOwnRecord } from '../platform/activity';
import { consumeRequest } from '../platform/rate-limit';
import { ProcessorError } from '../processor/port';
import { findCustomer } from '../sales/lookups';
import { newSale, saleWrites } from '../sales/transaction';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { findSubscriberByAnyId } from '../subscriptions/lookups';
import type { SubscriberRecord } from '../subscriptions/records';
import type { PeriodCharge, SeatsRecord, UsagePeriodRecord, UsageReportRecord } from './records';
import * as repo from './repository';
import {
  checkoutSeats,
  extraSeatPeriods,
  isUsagePriced,
  meterCharges,
  nextRetryAt,
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
const retryTimer = (subscriberId: string, periodStart: string) => `usage-retry-${subscriberId}-${Date.parse(periodStart)}`;

const inactive = () => conflict('The subscription is not active', 'SUBSCRIPTION_INACTIVE');
const isActive = (sub: SubscriberRecord) => sub.status === 'active' || sub.status === 'trialing' || sub.status === 'past_due';

async function subscriberAndPricing(deps: Deps, scope: Scope, id: string): Promise<{ sub: SubscriberRecord; offer: OfferRecord | undefined; pricing: Pricing }> {
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
    throw badRequest(`meter: "${body.meter}" is not a meter of this subscription (${pricing.meters.map((m) => m.key).join(', ') || 'none'})`, { field: 'meter' });
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
    await repo.putReport(ctx.store, scope, report, event, activityInOwnRecord());
    return reply(201, present(report, false));
  }
  try {
    await ctx.store.transact(repo.keyedReportWrites(scope, report, event, fingerprint, Math.floor(ctx.clock.nowMs() / 1000)));
  } catch (error) {
    const lost = isConditionFailed(error) || (error instanceof TransactionCanceledException && error.CancellationReasons?.some((r) => r.Code === 'TransactionConflict'));
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
function segmentsFor(seats: SeatsRecord, periodStart: string): SeatSegment[] {
  return seats.periodStart === periodStart ? seats.segments : [{ at: periodStart, quantity: seats.quantity }];
}

/** The seats record a subscriber of a seat offer has (a subscriber from before seats were on holds the minimum). */
function seatsOrDefault(found: SeatsRecord | undefined, sub: SubscriberRecord, pricing: Pricing, now: string): SeatsRecord {
  if (found) return found;
  const start = sub.currentPeriodStart ?? now;
  return { subscriberId: sub._id, purchased: pricing.seats.minimum, quantity: pricing.seats.minimum, periodStart: start, segments: [{ at: start, quantity: pricing.seats.minimum }], updatedAt: '' };
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
  return { subscriptionCustomerId: sub._id, purchased: after.purchased, quantity, minimum: pricing.seats.minimum, maximum: pricing.seats.maximum, unitPriceCents: pricing.seats.unitPriceCents };
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

function sumTotals(days: repo.DayCounters[]) {
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
      if (isConditionFailed(error) || (error instanceof TransactionCanceledException && error.CancellationReasons?.some((r) => r.Code === 'TransactionConflict'))) return folded;
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
    seats = { purchased: record.purchased, quantity: record.quantity, minimum: pricing.seats.minimum, maximum: pricing.seats.maximum, unitPriceCents: pricing.seats.unitPriceCents, extraSeatPeriods: seatPeriods, amountCents: seatChargeCents(seatPeriods, pricing.seats.unitPriceCents) };
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


/**
 * Closes one period: totals from its day counters, overage per meter, seat-periods, and the charge
 * of the sum; written once (the period item is put only if absent) with `usage.period_closed`.
 * Then the charge is attempted. A repeat of the timer finds the period and changes nothing.
 */
export async function closePeriod(deps: Deps, scope: Scope, input: { subscriberId: string; periodStart: string; periodEnd: string }): Promise<void> {
  if (deps.clock.nowMs() < Date.parse(input.periodEnd) + REPORT_SETTLE_SECONDS * 1000) return;
  const existing = await repo.getPeriod(deps.store, scope, input.subscriberId, input.periodStart);
  if (existing) return;
  const sub = await findSubscriberByAnyId(deps, scope, input.subscriberId);
  if (!sub) return;
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  const pricing = pricingOf(offer?.usagePricing);
  const now = deps.clock.now().toISOString();
  // Every report of the period has settled (the timer fires REPORT_SETTLE_SECONDS after its end):
  // fold them, then read counters plus anything still unfolded, so the totals are complete.
  await foldReports(deps, scope, sub._id, { force: true });
  const totals = sumTotals(await periodUsage(deps, scope, sub._id, input.periodStart));
  const meters = meterCharges(pricing.meters, totals);
  const seatsFound = await repo.getSeats(deps.store, scope, sub._id);
  const ops: TransactOp[] = [];
  let seats: UsagePeriodRecord['seats'] = null;
  if (pricing.seats.enabled || seatsFound) {
    const record = seatsOrDefault(seatsFound, sub, pricing, now);
    const seatPeriods = extraSeatPeriods(segmentsFor(record, input.periodStart), record.purchased, input.periodStart, input.periodEnd);
    const unit = pricing.seats.enabled ? pricing.seats.unitPriceCents : 0;
    seats = { purchased: record.purchased, quantity: record.quantity, extraSeatPeriods: seatPeriods, unitPriceCents: unit, amountCents: seatChargeCents(seatPeriods, unit) };
    // The next period starts with the seats held now.
    if (seatsFound) ops.push(repo.seatsReplace(scope, seatsFound, { ...seatsFound, periodStart: input.periodEnd, segments: [{ at: input.periodEnd, quantity: seatsFound.quantity }], updatedAt: now }));
  }
  const amountCents = meters.reduce((a, m) => a + m.amountCents, 0) + (seats?.amountCents ?? 0);
  const charge: PeriodCharge = {
    status: amountCents > 0 ? 'processing' : 'not_due',
    amountCents,
    currency: offer?.currency ?? 'usd',
    saleId: null,
    paymentId: null,
    retries: 0,
    nextRetryAt: null,
    firstFailedAt: null,
    failureMessage: null,
    paidAt: null,
  };
  const period: UsagePeriodRecord = { subscriberId: sub._id, subscriptionId: sub.subscriptionId, periodStart: input.periodStart, periodEnd: input.periodEnd, totals, meters, seats, charge, closedAt: now, updatedAt: now };
  ops.unshift(repo.periodPutNew(scope, period));
  ops.push(outboxPut(newEvent(scope, deps.clock, 'usage.period_closed', periodEventData(period))));
  try {
    await deps.store.transact(ops);
  } catch (error) {
    if (isConditionFailed(error)) return; // closed by a repeat of the timer, or the seats moved: the next run decides
    throw error;
  }
  if (charge.status === 'processing') await attemptCharge(deps, scope, sub, period);
}

/** The retry timer: re-attempts a failed or due charge once its time has come. */
export async function retryCharge(deps: Deps, scope: Scope, input: { subscriberId: string; periodStart: string }): Promise<void> {
  const period = await repo.getPeriod(deps.store, scope, input.subscriberId, input.periodStart);
  if (!period || (period.charge.status !== 'failed' && period.charge.status !== 'due')) return;
  if (period.charge.nextRetryAt && Date.parse(period.charge.nextRetryAt) > deps.clock.nowMs()) return;
  const sub = await findSubscriberByAnyId(deps, scope, input.subscriberId);
  if (!sub) return;
  // Claim the attempt: of two runs of the timer only one moves the charge to processing.
  const now = deps.clock.now().toISOString();
  const claimed: UsagePeriodRecord = { ...period, charge: { ...period.charge, status: 'processing' }, updatedAt: now };
  try {
    await deps.store.transact([repo.periodReplace(scope, period, claimed)]);
  } catch (error) {
    if (isConditionFailed(error)) return;
    throw error;
  }
  await attemptCharge(deps, scope, sub, claimed);
}

/** One charge attempt of a period in `processing`; records paid (with its sale) or the failure. */
async function attemptCharge(deps: Deps, scope: Scope, sub: SubscriberRecord, period: UsagePeriodRecord): Promise<void> {
  const now = deps.clock.now().toISOString();
  let paid: { paymentId: string } | undefined;
  let failure: { message: string; declined: boolean } | undefined;
  try {
    if (!sub.membershipId) throw new ProcessorError('No membership to charge', 'refused');
    paid = await deps.ports.processor.chargeMembership!(scope, sub.membershipId, {
      amountCents: period.charge.amountCents,
      currency: period.charge.currency,
      description: `Usage ${period.periodStart.slice(0, 10)} to ${period.periodEnd.slice(0, 10)}`,
    });
  } catch (error) {
    if (!(error instanceof ProcessorError)) throw error;
    failure = { message: error.message, declined: error.code === 'declined' };
  }
  if (paid) {
    const customer = await findCustomer(deps, scope, sub.customerId);
    const offer = await lookupOffer(deps, scope, sub.subscriptionId);
    const sale = newSale(
      deps.clock,
      scope,
      {
        type: 'subscription',
        billingReason: 'usage',
        productId: '',
        productName: offer ? `${offer.name} (usage)` : 'Usage',
        subscriptionId: sub.subscriptionId,
        subscriberId: sub._id,
        customerId: sub.customerId,
        buyerEmail: sub.buyerEmail,
        firstName: sub.firstName,
        lastName: sub.lastName,
        country: sub.country,
        amountCents: period.charge.amountCents,
        originalAmountCents: period.charge.amountCents,
        currency: period.charge.currency,
        discountCode: null,
        paymentIntentId: paid.paymentId,
        planId: sub.planId,
        membershipId: sub.membershipId,
        paymentMethod: sub.paymentMethod,
        checkoutSessionId: null,
        clientReferenceId: sub.clientReferenceId,
        metadata: sub.metadata,
        free: false,
      },
      now,
    );
    const ops: TransactOp[] = [];
    const events: DomainEvent[] = [];
    let saleId = sale._id;
    if (customer) {
      const written = saleWrites(deps, scope, { sale, customer, countOrder: true, now, reviewLink: false });
      saleId = written.sale._id;
      ops.push(...written.ops);
      events.push(...written.events);
    }
    const after: UsagePeriodRecord = { ...period, charge: { ...period.charge, status: 'paid', saleId, paymentId: paid.paymentId, nextRetryAt: null, paidAt: now }, updatedAt: now };
    await deps.store.transact([repo.periodReplace(scope, period, after), ...ops, ...events.map(outboxPut)]);
    await deps.ports.scheduler.cancel(retryTimer(sub._id, period.periodStart));
    return;
  }
  const first = period.charge.firstFailedAt ?? now;
  const retries = period.charge.firstFailedAt ? period.charge.retries + 1 : 0;
  const next = nextRetryAt(first, retries);
  const status = next === null ? 'uncollectible' : failure!.declined ? 'failed' : 'due';
  const after: UsagePeriodRecord = { ...period, charge: { ...period.charge, status, retries, firstFailedAt: first, nextRetryAt: next, failureMessage: failure!.message }, updatedAt: now };
  await deps.store.transact([repo.periodReplace(scope, period, after)]);
  if (next) await deps.ports.scheduler.schedule(retryTimer(sub._id, period.periodStart), new Date(next), { type: JOB_RETRY_CHARGE, scope, payload: { subscriberId: sub._id, periodStart: period.periodStart } });
}
