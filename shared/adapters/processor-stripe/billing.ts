import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { Deps } from '../../platform/context';
import { ProcessorError, type MembershipAdjustment, type MembershipChargeInput, type PaymentMethod, type RecoveryPolicy } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { discountTerms } from '../../processor/intro';
import { stripeCall } from './errors';
import { JOB_RETRY_INVOICE, META, retryTimer, specId, STRIPE_INTERVALS, type StripeRef } from './records';
import { advanceRef, ensureRef, getRef, getStripeSettings, putStripeSettings } from './refs';

/**
 * Stripe Billing behind the port's retention, usage and credits methods (the class in stripe.ts
 * forwards here). How each maps, and why:
 * - usage and seat charges: an off-session PaymentIntent on the subscription's default card. The
 *   port's answer is synchronous and the service owns the retry days (1, 3, 5, 7), so an invoice
 *   item on the next invoice (paid a period later, retried by Stripe) would not fit; the charge's
 *   idempotency key names the attempt, so a retried job never charges twice.
 * - a lower price for the next N payments (save offer, intro price): a coupon of the difference
 *   on the subscription, `repeating` for as many months as N payments span; on a weekly
 *   membership (Stripe counts coupons in months) a `forever` coupon that the webhook removes
 *   after N paid renewals.
 * - skipping renewals (pause save offer): `pause_collection` (void) with `resumes_at` at the end
 *   of the skipped periods; access stays, the invoices of those periods are voided.
 * - a switch of interval at the next renewal (yearly switch): a subscription schedule whose
 *   second phase holds the new price, so nothing is prorated and the switch happens at the
 *   boundary; the schedule is released after it.
 * - void and pause (recovery's `pause` final action): the open renewal invoice is voided, then the
 *   subscription's collection is paused.
 */
export interface StripeContext {
  deps: Deps;
  scope: Scope;
  client: Stripe;
}

export const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);
const lower = (currency: string) => currency.toLowerCase();

/** A Stripe PaymentMethod (card) as the port shows it, with its spec id. */
export function paymentMethodOf(scope: Scope, pm: Stripe.PaymentMethod | string | null | undefined): PaymentMethod | null {
  if (!pm || typeof pm === 'string' || !pm.card) return null;
  return { id: specId('payt', scope, pm.id), type: 'card', brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year };
}

/** Adds `count` intervals to Unix seconds (calendar months and years, as Stripe bills them). */
export function addInterval(seconds: number, interval: string, count: number): number {
  const d = new Date(seconds * 1000);
  if (interval === 'week') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (interval === 'day') d.setUTCDate(d.getUTCDate() + count);
  else if (interval === 'year') d.setUTCFullYear(d.getUTCFullYear() + count);
  else d.setUTCMonth(d.getUTCMonth() + count);
  return Math.floor(d.getTime() / 1000);
}

const own = (scope: Scope, extra: Record<string, string> = {}) => ({ [META.account]: scope.accountId, [META.mode]: scope.mode, ...extra });

// ---- usage and seat charges ----

export async function chargeMembership(ctx: StripeContext, ref: StripeRef, input: MembershipChargeInput) {
  const sub = await stripeCall(() => ctx.client.subscriptions.retrieve(ref.stripeId, { expand: ['default_payment_method', 'customer'] }));
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') throw new ProcessorError('The membership has ended', 'invalid');
  const customer = typeof sub.customer === 'object' && !('deleted' in sub.customer && sub.customer.deleted) ? (sub.customer as Stripe.Customer) : null;
  const customerId = idOf(sub.customer as string | { id: string })!;
  const pm = (typeof sub.default_payment_method === 'object' && sub.default_payment_method) || customer?.invoice_settings?.default_payment_method || null;
  const pmId = idOf(pm as string | { id: string } | null);
  if (!pmId) throw new ProcessorError('No payment method on file.', 'declined', 'missing_payment_method');
  const key = input.reference ? `cc-membership-charge-${ref.stripeId}-${input.reference}`.slice(0, 255) : `cc-membership-charge-${randomUUID()}`;
  const intent = await stripeCall(() =>
    ctx.client.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: lower(input.currency),
        customer: customerId,
        payment_method: pmId,
        off_session: true,
        confirm: true,
        description: input.description,
        metadata: own(ctx.scope, { cc_membership_id: ref.specId }),
      },
      { idempotencyKey: key },
    ),
  );
  if (intent.status !== 'succeeded') throw new ProcessorError('The card needs the buyer to confirm the charge', 'declined', 'authentication_required');
  const paymentId = specId('pay', ctx.scope, intent.id);
  await ensureRef(ctx.deps.store, ctx.scope, {
    specId: paymentId,
    stripeId: intent.id,
    kind: 'payment',
    amountCents: intent.amount,
    currency: input.currency,
    membershipId: ref.specId,
    refundedCents: 0,
  });
  return { paymentId, paymentMethod: typeof pm === 'object' ? paymentMethodOf(ctx.scope, pm) : null };
}

// ---- changes of coming renewals ----

async function applyNextPayments(ctx: StripeContext, ref: StripeRef, sub: Stripe.Subscription, change: NonNullable<MembershipAdjustment['nextPayments']>) {
  const item = sub.items.data[0]!;
  const regular = item.price.unit_amount ?? 0;
  const off = regular - change.amountCents;
  const updateKey = `cc-discount-${randomUUID()}`;
  if (off <= 0 || change.payments < 1) {
    await stripeCall(() => ctx.client.subscriptions.update(sub.id, { discounts: '' }, { idempotencyKey: updateKey }));
    return;
  }
  const terms = discountTerms(change.payments, item.price.recurring?.interval ?? 'month', item.price.recurring?.interval_count ?? 1);
  const months = terms.duration === 'repeating' ? terms.months : null;
  const coupon = await stripeCall(() =>
    ctx.client.coupons.create(
      {
        amount_off: off,
        currency: sub.currency,
        ...(months ? { duration: 'repeating' as const, duration_in_months: months } : { duration: 'forever' as const }),
        name: 'Subscription price change',
        metadata: own(ctx.scope, { cc_membership_id: ref.specId }),
      },
      { idempotencyKey: `cc-coupon-${sub.id}-${off}-${sub.currency}-${months ?? `forever-${change.payments}`}` },
    ),
  );
  await stripeCall(() => ctx.client.subscriptions.update(sub.id, { discounts: [{ coupon: coupon.id }] }, { idempotencyKey: updateKey }));
  // Weekly: Stripe cannot count N payments, the webhook removes the coupon after them.
  await advanceRef(ctx.deps.store, ctx.scope, ref.specId, { discountPaymentsLeft: months ? 0 : change.payments }, 'attribute_exists(specId)', {});
}

async function applySwitch(ctx: StripeContext, sub: Stripe.Subscription, change: NonNullable<MembershipAdjustment['switchAtNextRenewal']>) {
  const item = sub.items.data[0]!;
  const product = idOf(item.price.product as string | { id: string })!;
  const recurring = STRIPE_INTERVALS[change.interval];
  const price = await stripeCall(() =>
    ctx.client.prices.create(
      { product, unit_amount: change.amountCents, currency: sub.currency, recurring, metadata: own(ctx.scope) },
      { idempotencyKey: `cc-price-switch-${product}-${change.amountCents}-${sub.currency}-${change.interval}` },
    ),
  );
  const scheduleId = idOf(sub.schedule as string | { id: string } | null);
  const schedule = scheduleId
    ? await stripeCall(() => ctx.client.subscriptionSchedules.retrieve(scheduleId))
    : await stripeCall(() =>
        ctx.client.subscriptionSchedules.create({ from_subscription: sub.id }, { idempotencyKey: `cc-schedule-${sub.id}-${item.current_period_end}` }),
      );
  const start = schedule.current_phase?.start_date ?? item.current_period_start;
  const phasesKey = `cc-schedule-phases-${randomUUID()}`;
  await stripeCall(() =>
    ctx.client.subscriptionSchedules.update(
      schedule.id,
      {
        end_behavior: 'release',
        phases: [
          { items: [{ price: item.price.id, quantity: item.quantity ?? 1 }], start_date: start, end_date: item.current_period_end },
          {
            items: [{ price: price.id, quantity: 1 }],
            duration: { interval: recurring.interval, interval_count: recurring.interval_count },
            proration_behavior: 'none',
          },
        ],
      },
      { idempotencyKey: phasesKey },
    ),
  );
}

/** The port's `adjustMembership` on Stripe; answers the subscription after the change. */
export async function adjustMembership(
  ctx: StripeContext,
  ref: StripeRef,
  change: MembershipAdjustment,
): Promise<{ sub: Stripe.Subscription; periodEnd?: number }> {
  let sub = await stripeCall(() => ctx.client.subscriptions.retrieve(ref.stripeId, { expand: ['latest_invoice'] }));
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') throw new ProcessorError('The membership has ended', 'invalid');
  const pastDue = sub.status === 'past_due' || sub.status === 'unpaid';
  let periodEnd: number | undefined;
  if (change.voidAndPause) {
    if (!pastDue) throw new ProcessorError('Only a past-due membership has a renewal to void', 'invalid');
    const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
    if (invoice?.id && invoice.status === 'open')
      await stripeCall(() => ctx.client.invoices.voidInvoice(invoice.id!, {}, { idempotencyKey: `cc-void-${invoice.id}` }));
    const key = `cc-pause-${randomUUID()}`;
    await stripeCall(() => ctx.client.subscriptions.update(sub.id, { pause_collection: { behavior: 'void' } }, { idempotencyKey: key }));
  }
  if (change.skipPeriods) {
    if (pastDue || sub.pause_collection) throw new ProcessorError('Only a membership in good standing can skip renewals', 'invalid');
    const item = sub.items.data[0]!;
    periodEnd = addInterval(
      item.current_period_end,
      item.price.recurring?.interval ?? 'month',
      change.skipPeriods * (item.price.recurring?.interval_count ?? 1),
    );
    const key = `cc-skip-${randomUUID()}`;
    await stripeCall(() => ctx.client.subscriptions.update(sub.id, { pause_collection: { behavior: 'void', resumes_at: periodEnd } }, { idempotencyKey: key }));
  }
  if (change.nextPayments) await applyNextPayments(ctx, ref, sub, change.nextPayments);
  if (change.switchAtNextRenewal) await applySwitch(ctx, sub, change.switchAtNextRenewal);
  sub = await stripeCall(() => ctx.client.subscriptions.retrieve(ref.stripeId, { expand: ['default_payment_method'] }));
  return { sub, periodEnd };
}

// ---- recovery on the service's schedule ----

export async function setRecoveryPolicy(ctx: StripeContext, policy: RecoveryPolicy | null) {
  await putStripeSettings(ctx.deps.store, ctx.scope, {
    recovery: policy ? { retryDays: [...policy.retryDays] } : null,
    updatedAt: ctx.deps.clock.now().toISOString(),
  });
}

/**
 * One retry of a failed renewal invoice on the recovery schedule: Stripe charges the default card
 * and reports the outcome as `invoice.paid` or `invoice.payment_failed` (translate.ts). The key
 * names the attempt, so a job run twice pays once. A declined card is the expected outcome of a
 * retry, not a fault. With no card on file at all Stripe refuses to attempt the invoice (and sends
 * no event): the attempt counts as failed and the next one is scheduled here, on the policy's days
 * from the first failure, so the schedule and the service's final action still run.
 */
export async function retryInvoice(ctx: StripeContext, invoiceId: string, attempt: number) {
  const invoice = await stripeCall(() => ctx.client.invoices.retrieve(invoiceId));
  if (invoice.status !== 'open') return 'not_open' as const;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription as string | { id: string } | null | undefined);
  if (subscriptionId && !(await hasCard(ctx, subscriptionId))) {
    await scheduleRetry(ctx, invoiceId, subscriptionId, attempt);
    return 'no_payment_method' as const;
  }
  try {
    await stripeCall(() => ctx.client.invoices.pay(invoiceId, { off_session: true }, { idempotencyKey: `cc-recovery-${invoiceId}-${attempt}` }));
    return 'paid' as const;
  } catch (error) {
    if (error instanceof ProcessorError && error.code === 'declined') return 'declined' as const;
    throw error;
  }
}

/** Whether the subscription, or else its customer, has a default card Stripe can charge. */
async function hasCard(ctx: StripeContext, subscriptionId: string) {
  const sub = await stripeCall(() => ctx.client.subscriptions.retrieve(subscriptionId, { expand: ['customer'] }));
  const customer = typeof sub.customer === 'object' && !('deleted' in sub.customer && sub.customer.deleted) ? (sub.customer as Stripe.Customer) : null;
  return Boolean(sub.default_payment_method || customer?.invoice_settings?.default_payment_method);
}

async function scheduleRetry(ctx: StripeContext, invoiceId: string, subscriptionId: string, attempt: number) {
  const policy = (await getStripeSettings(ctx.deps.store, ctx.scope))?.recovery;
  const ref = await getRef(ctx.deps.store, ctx.scope, specId('mem', ctx.scope, subscriptionId));
  const day = policy?.retryDays[attempt - 1];
  if (day === undefined || !ref?.failedSince) return;
  const at = new Date((ref.failedSince + day * 86_400) * 1000);
  await ctx.deps.ports.scheduler.schedule(retryTimer(invoiceId), at, {
    type: JOB_RETRY_INVOICE,
    scope: ctx.scope,
    payload: { invoiceId, attempt: attempt + 1 },
  });
}

// ---- credits: consent withdrawn ----

export async function detachSavedCard(ctx: StripeContext, paymentMethodId: string) {
  const card = /^payt_[0-9a-f]{24}$/.test(paymentMethodId) ? await getRef(ctx.deps.store, ctx.scope, paymentMethodId) : undefined;
  if (!card || card.kind !== 'card') return;
  try {
    await stripeCall(() => ctx.client.paymentMethods.detach(card.stripeId, {}, { idempotencyKey: `cc-detach-${card.stripeId}` }));
  } catch (error) {
    // Already detached (or removed in the dashboard): the outcome the caller wants.
    if (!(error instanceof ProcessorError && (error.code === 'not_found' || error.code === 'invalid'))) throw error;
  }
  await advanceRef(ctx.deps.store, ctx.scope, card.specId, { customerId: null }, 'attribute_exists(specId)', {});
}
