import { lookupOffer } from '../catalog/service';
import type { Deps } from '../platform/context';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import { ProcessorError } from '../processor/port';
import { findCustomer } from '../sales/lookups';
import { newSale, saleWrites } from '../sales/transaction';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { findSubscriberByAnyId } from '../subscriptions/lookups';
import type { SubscriberRecord } from '../subscriptions/records';
import { periodEventData } from './events';
import type { PeriodCharge, UsagePeriodRecord } from './records';
import * as repo from './repository';
import { extraSeatPeriods, meterCharges, nextRetryAt, pricingOf, REPORT_SETTLE_SECONDS, seatChargeCents } from './rules';
import { foldReports, JOB_RETRY_CHARGE, periodUsage, seatsOrDefault, segmentsFor, sumTotals } from './service';

// The period close and its charge, run by the usage timers (jobs.ts): apart from the operations,
// so the API function does not reach the payment processor (its adapters, Stripe, KMS).

const retryTimer = (subscriberId: string, periodStart: string) => `usage-retry-${subscriberId}-${Date.parse(periodStart)}`;

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
    seats = {
      purchased: record.purchased,
      quantity: record.quantity,
      extraSeatPeriods: seatPeriods,
      unitPriceCents: unit,
      amountCents: seatChargeCents(seatPeriods, unit),
    };
    // The next period starts with the seats held now.
    if (seatsFound)
      ops.push(
        repo.seatsReplace(scope, seatsFound, {
          ...seatsFound,
          periodStart: input.periodEnd,
          segments: [{ at: input.periodEnd, quantity: seatsFound.quantity }],
          updatedAt: now,
        }),
      );
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
  const period: UsagePeriodRecord = {
    subscriberId: sub._id,
    subscriptionId: sub.subscriptionId,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    totals,
    meters,
    seats,
    charge,
    closedAt: now,
    updatedAt: now,
  };
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
      // One attempt, one charge: a rerun of this attempt (lost answer, retried job) is not charged again.
      reference: `usage-${sub._id}-${period.periodStart}-${period.charge.retries}`,
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
    const after: UsagePeriodRecord = {
      ...period,
      charge: { ...period.charge, status: 'paid', saleId, paymentId: paid.paymentId, nextRetryAt: null, paidAt: now },
      updatedAt: now,
    };
    await deps.store.transact([repo.periodReplace(scope, period, after), ...ops, ...events.map(outboxPut)]);
    await deps.ports.scheduler.cancel(retryTimer(sub._id, period.periodStart));
    return;
  }
  const first = period.charge.firstFailedAt ?? now;
  const retries = period.charge.firstFailedAt ? period.charge.retries + 1 : 0;
  const next = nextRetryAt(first, retries);
  const status = next === null ? 'uncollectible' : failure!.declined ? 'failed' : 'due';
  const after: UsagePeriodRecord = {
    ...period,
    charge: { ...period.charge, status, retries, firstFailedAt: first, nextRetryAt: next, failureMessage: failure!.message },
    updatedAt: now,
  };
  await deps.store.transact([repo.periodReplace(scope, period, after)]);
  if (next)
    await deps.ports.scheduler.schedule(retryTimer(sub._id, period.periodStart), new Date(next), {
      type: JOB_RETRY_CHARGE,
      scope,
      payload: { subscriberId: sub._id, periodStart: period.periodStart },
    });
}
