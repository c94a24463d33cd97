import type Stripe from 'stripe';
import type { Deps } from '../../platform/context';
import { conflict } from '../../platform/errors';
import type {
  ChargeFailedData,
  ChargeSucceededData,
  CheckoutCompletedData,
  MembershipCanceledData,
  PaymentDisputedData,
  PaymentRefundedData,
  ProcessorNotification,
} from '../../processor/port';
import { ProcessorError } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { JOB_RETRY_INVOICE, META, retryTimer, specId, type StripeRef } from './records';
import { idOf } from './billing';
import { advanceRef, ensureRef, getRef, getStripeSettings } from './refs';
import { stripeCall } from './errors';
import { paymentMethodOf } from './stripe';

/** The Stripe event types the webhook endpoint is set up to send (README setup guide). */
export const STRIPE_EVENT_TYPES = [
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
  'charge.dispute.created',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'customer.updated',
] as const;

const DAY_SECONDS = 86_400;

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

interface Context {
  deps: Deps;
  scope: Scope;
  client: Stripe;
  event: Stripe.Event;
}

type Translation = { type: string; data: unknown } | null;

/** Not ours yet (the checkout that makes it ours has not been applied): Stripe retries a non-2xx. */
const notYetKnown = (what: string) => conflict(`${what} is not known yet; Stripe will retry this event`, 'STRIPE_EVENT_EARLY');

/**
 * Turns a verified Stripe event into the notification the sandbox would have sent for the same
 * change, or null (acknowledged, nothing to apply). Guards on the adapter's own records make each
 * Stripe object move forward only: a stale or reordered event translates to null, a retried one
 * (the same event id) translates again and the ingress marker applies it once.
 */
export async function translateEvent(ctx: Context): Promise<ProcessorNotification | null> {
  const translation = await translate(ctx);
  if (!translation) return null;
  return {
    id: ctx.event.id,
    type: translation.type,
    created: ctx.event.created,
    accountId: ctx.scope.accountId,
    mode: ctx.scope.mode,
    data: translation.data as Record<string, unknown>,
  };
}

async function translate(ctx: Context): Promise<Translation> {
  const object = ctx.event.data.object as unknown;
  switch (ctx.event.type) {
    case 'checkout.session.completed':
      return checkoutCompleted(ctx, object as Stripe.Checkout.Session);
    case 'invoice.paid':
      return invoicePaid(ctx, object as Stripe.Invoice);
    case 'invoice.payment_failed':
      return invoiceFailed(ctx, object as Stripe.Invoice);
    case 'customer.subscription.deleted':
      return subscriptionDeleted(ctx, object as Stripe.Subscription);
    case 'charge.refunded':
      return chargeRefunded(ctx, object as Stripe.Charge);
    case 'charge.dispute.created':
      return disputeCreated(ctx, object as Stripe.Dispute);
    case 'customer.updated':
      return customerUpdated(ctx, object as Stripe.Customer);
    default:
      // customer.subscription.updated, payment_intent.*: their effects reach the subscriber
      // through the invoice and deletion events (and off-session charges answer synchronously),
      // exactly as the sandbox reports them; they are acknowledged.
      return null;
  }
}

async function checkoutCompleted({ deps, scope, client, event }: Context, session: Stripe.Checkout.Session): Promise<Translation> {
  const sessionId = session.metadata?.[META.session];
  if (!sessionId || session.payment_status === 'unpaid') return null;
  const planId = session.metadata?.[META.plan] ?? '';
  const currency = session.metadata?.[META.currency] ?? (session.currency ?? 'usd').toUpperCase();
  const customerId = idOf(session.customer);
  const details = session.customer_details;
  const [firstName, ...rest] = (details?.name ?? '').trim().split(/\s+/);
  const buyer = {
    email: details?.email ?? session.customer_email ?? '',
    firstName: firstName || null,
    lastName: rest.join(' ') || null,
    country: details?.address?.country ?? null,
  };
  let paymentMethod = null;
  // The Stripe card behind the spec's payt_ id, kept for off-session charges.
  let stripePmId: string | null = null;
  let payment: CheckoutCompletedData['payment'] = null;
  let membership: CheckoutCompletedData['membership'] = null;
  let intentId: string | null = idOf(session.payment_intent);
  const amount = session.amount_total ?? 0;
  if (session.mode === 'subscription') {
    const subscriptionId = idOf(session.subscription)!;
    const sub = await stripeCall(() => client.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] }));
    const item = sub.items.data[0]!;
    paymentMethod = paymentMethodOf(scope, typeof sub.default_payment_method === 'object' ? sub.default_payment_method : null);
    stripePmId = idOf(sub.default_payment_method);
    const trialing = sub.status === 'trialing';
    const membershipId = specId('mem', scope, sub.id);
    membership = {
      id: membershipId,
      status: trialing ? 'trialing' : 'active',
      currentPeriodStart: iso(item.current_period_start),
      currentPeriodEnd: iso(item.current_period_end),
      trialEnd: sub.trial_end ? iso(sub.trial_end) : null,
    };
    if (!trialing && amount > 0 && session.invoice) {
      const payments = await stripeCall(() => client.invoicePayments.list({ invoice: idOf(session.invoice)!, limit: 3 }));
      intentId = idOf(payments.data.find((p) => p.payment.payment_intent)?.payment.payment_intent);
    }
    // A weekly intro price is a coupon the adapter counts (createCheckout): the first invoice was one
    // of its payments; with none left it ends now, before the first renewal.
    const introLeft = trialing ? 0 : Number(session.metadata?.[META.introPayments] ?? 0) - 1;
    await ensureRef(deps.store, scope, {
      specId: membershipId,
      stripeId: sub.id,
      kind: 'membership',
      customerId,
      planId,
      status: membership.status,
      periodEnd: item.current_period_end,
      advancedBy: event.id,
      ...(introLeft > 0 ? { discountPaymentsLeft: introLeft } : {}),
    });
    if (introLeft === 0 && sub.discounts.length > 0)
      await stripeCall(() => client.subscriptions.update(sub.id, { discounts: '' }, { idempotencyKey: `cc-intro-end-${sub.id}` }));
  } else if (intentId) {
    const intent = await stripeCall(() => client.paymentIntents.retrieve(intentId!, { expand: ['payment_method'] }));
    paymentMethod = paymentMethodOf(scope, typeof intent.payment_method === 'object' ? intent.payment_method : null);
    stripePmId = idOf(intent.payment_method);
  }
  if (intentId && amount > 0) {
    const paymentId = specId('pay', scope, intentId);
    payment = { id: paymentId, amountCents: amount, currency, planId };
    await ensureRef(deps.store, scope, {
      specId: paymentId,
      stripeId: intentId,
      kind: 'payment',
      amountCents: amount,
      currency,
      membershipId: membership?.id ?? null,
      refundedCents: 0,
    });
  }
  const savedCard = session.mode === 'payment' && session.metadata?.[META.saveCard] === '1' && Boolean(paymentMethod);
  if (paymentMethod && stripePmId && customerId)
    await ensureRef(deps.store, scope, { specId: paymentMethod.id, stripeId: stripePmId, kind: 'card', customerId, paymentMethod });
  // Stripe Tax: the total includes the tax; the payment is the price, the tax apart (as the sandbox reports it).
  const taxCents = session.total_details?.amount_tax ?? 0;
  const vatNumber = session.customer_details?.tax_ids?.[0]?.value ?? null;
  let tax: CheckoutCompletedData['tax'] = null;
  if (payment && (taxCents > 0 || session.automatic_tax?.enabled)) {
    const net = payment.amountCents - taxCents;
    payment = { ...payment, amountCents: net };
    tax = { amountCents: taxCents, ratePercent: net > 0 ? Math.round((taxCents / net) * 10_000) / 100 : 0, vatNumber };
  }
  const data: CheckoutCompletedData = { checkoutId: session.id, sessionId, buyer, paymentMethod, savedCard, payment, tax, membership };
  return { type: 'checkout.completed', data };
}

const subscriptionOf = (invoice: Stripe.Invoice) => idOf(invoice.parent?.subscription_details?.subscription as string | { id: string } | null | undefined);
const linePeriod = (invoice: Stripe.Invoice) => invoice.lines.data[0]?.period ?? { start: invoice.period_start, end: invoice.period_end };

async function membershipRef(ctx: Context, invoice: Stripe.Invoice) {
  const subscriptionId = subscriptionOf(invoice);
  if (!subscriptionId) return undefined;
  const ref = await getRef(ctx.deps.store, ctx.scope, specId('mem', ctx.scope, subscriptionId));
  if (!ref) throw notYetKnown(`Subscription ${subscriptionId}`);
  return ref;
}

async function invoicePaid(ctx: Context, invoice: Stripe.Invoice): Promise<Translation> {
  // The first invoice is the checkout's own payment (checkout.session.completed reports it).
  if (invoice.billing_reason === 'subscription_create') return null;
  const ref = await membershipRef(ctx, invoice);
  if (!ref || ref.status === 'canceled') return null;
  const period = linePeriod(invoice);
  // Forward only: a period already paid (a replay, or an older invoice arriving late) is stale.
  const moved = await advanceRef(
    ctx.deps.store,
    ctx.scope,
    ref.specId,
    { periodEnd: period.end, advancedBy: ctx.event.id, status: 'active' },
    'periodEnd < :end OR advancedBy = :event',
    { ':end': period.end, ':event': ctx.event.id },
  );
  if (!moved) return null;
  await ctx.deps.ports.scheduler.cancel(retryTimer(invoice.id!));
  await countDiscountedPayment(ctx, ref, invoice);
  let intentId = idOf(invoice.payments?.data.find((p) => p.payment.payment_intent)?.payment.payment_intent);
  if (!intentId) {
    const payments = await stripeCall(() => ctx.client.invoicePayments.list({ invoice: invoice.id!, limit: 3 }));
    intentId = idOf(payments.data.find((p) => p.payment.payment_intent)?.payment.payment_intent);
  }
  const paymentId = specId('pay', ctx.scope, intentId ?? invoice.id!);
  const currency = invoice.currency.toUpperCase();
  await ensureRef(ctx.deps.store, ctx.scope, {
    specId: paymentId,
    stripeId: intentId ?? invoice.id!,
    kind: 'payment',
    amountCents: invoice.amount_paid,
    currency,
    membershipId: ref.specId,
    refundedCents: 0,
  });
  const data: ChargeSucceededData = {
    membershipId: ref.specId,
    billingReason: ref.status === 'trialing' ? 'initial' : 'renewal',
    payment: { id: paymentId, amountCents: invoice.amount_paid, currency, planId: ref.planId ?? '' },
    paymentMethod: null,
    membership: { status: 'active', currentPeriodStart: iso(period.start), currentPeriodEnd: iso(period.end) },
  };
  return { type: 'charge.succeeded', data };
}

async function invoiceFailed(ctx: Context, invoice: Stripe.Invoice): Promise<Translation> {
  if (invoice.billing_reason === 'subscription_create') return null;
  const ref = await membershipRef(ctx, invoice);
  if (!ref || ref.status === 'canceled') return null;
  const period = linePeriod(invoice);
  const attempt = Math.max(1, invoice.attempt_count);
  // A failure for a period already paid, or an earlier attempt than one applied, is stale.
  const moved = await advanceRef(
    ctx.deps.store,
    ctx.scope,
    ref.specId,
    { failedPeriodEnd: period.end, failedAttempt: attempt, failedBy: ctx.event.id },
    'failedBy = :event OR (periodEnd < :end AND (attribute_not_exists(failedPeriodEnd) OR failedPeriodEnd <> :end OR failedAttempt < :attempt))',
    { ':end': period.end, ':attempt': attempt, ':event': ctx.event.id },
  );
  if (!moved) return null;
  const recovery = (await getStripeSettings(ctx.deps.store, ctx.scope))?.recovery ?? null;
  let final = invoice.next_payment_attempt === null;
  let nextRetryAt = invoice.next_payment_attempt ? iso(invoice.next_payment_attempt) : null;
  if (recovery) {
    // Recovery on the service's schedule: Stripe's automatic collection of this invoice stops
    // (no Smart Retries, no cancel after them) and the adapter's timer pays it on the policy's days
    // after the first failure; after the last one the membership stays past due and the service
    // applies its final action.
    const since = await firstFailure(ctx, ref, period.end);
    if (invoice.auto_advance)
      await stripeCall(() => ctx.client.invoices.update(invoice.id!, { auto_advance: false }, { idempotencyKey: `cc-recovery-stop-${invoice.id}` }));
    const day = recovery.retryDays[attempt - 1];
    final = false;
    nextRetryAt = day === undefined ? null : iso(since + day * DAY_SECONDS);
    if (nextRetryAt) {
      await ctx.deps.ports.scheduler.schedule(retryTimer(invoice.id!), new Date(nextRetryAt), {
        type: JOB_RETRY_INVOICE,
        scope: ctx.scope,
        payload: { invoiceId: invoice.id, attempt: attempt + 1 },
      });
    }
  }
  const data: ChargeFailedData = {
    membershipId: ref.specId,
    billingReason: ref.status === 'trialing' ? 'initial' : 'renewal',
    attempt,
    final,
    nextRetryAt,
    failureMessage: 'Your card was declined.',
    declineCode: 'card_declined',
    amountCents: invoice.amount_due,
    currency: invoice.currency.toUpperCase(),
  };
  return { type: 'charge.failed', data };
}

async function subscriptionDeleted(ctx: Context, sub: Stripe.Subscription): Promise<Translation> {
  const ref = await getRef(ctx.deps.store, ctx.scope, specId('mem', ctx.scope, sub.id));
  if (!ref) return null;
  const moved = await advanceRef(
    ctx.deps.store,
    ctx.scope,
    ref.specId,
    { status: 'canceled', canceledBy: ctx.event.id },
    'attribute_not_exists(canceledBy) OR canceledBy = :event',
    {
      ':event': ctx.event.id,
    },
  );
  if (!moved) return null;
  const data: MembershipCanceledData = { membershipId: ref.specId };
  return { type: 'membership.canceled', data };
}

async function paymentRef(ctx: Context, intent: string | { id: string } | null) {
  const intentId = idOf(intent);
  return intentId ? getRef(ctx.deps.store, ctx.scope, specId('pay', ctx.scope, intentId)) : undefined;
}

async function chargeRefunded(ctx: Context, charge: Stripe.Charge): Promise<Translation> {
  const ref = await paymentRef(ctx, charge.payment_intent);
  if (!ref) return null;
  const before = ref.refundedBy === ctx.event.id ? (ref.refundedBefore ?? 0) : (ref.refundedCents ?? 0);
  // Refunded amounts only grow: an older charge.refunded arriving late is stale.
  const moved = await advanceRef(
    ctx.deps.store,
    ctx.scope,
    ref.specId,
    { refundedCents: charge.amount_refunded, refundedBefore: before, refundedBy: ctx.event.id },
    'refundedBy = :event OR refundedCents < :total',
    { ':event': ctx.event.id, ':total': charge.amount_refunded },
  );
  if (!moved) return null;
  const data: PaymentRefundedData = {
    paymentId: ref.specId,
    refundId: charge.refunds?.data[0]?.id ?? `re_${ctx.event.id}`,
    amountCents: charge.amount_refunded - before,
    refundedCents: charge.amount_refunded,
    full: charge.refunded,
  };
  return { type: 'payment.refunded', data };
}

async function disputeCreated(ctx: Context, dispute: Stripe.Dispute): Promise<Translation> {
  const ref = await paymentRef(ctx, dispute.payment_intent as string | { id: string } | null);
  if (!ref) return null;
  const data: PaymentDisputedData = { paymentId: ref.specId };
  return { type: 'payment.disputed', data };
}

/** The first failure of this renewal (Unix seconds), recorded once per failed period. */
async function firstFailure(ctx: Context, ref: StripeRef, periodEnd: number): Promise<number> {
  const current = await getRef(ctx.deps.store, ctx.scope, ref.specId);
  if (current?.failedSince && current.failedSinceEnd === periodEnd) return current.failedSince;
  const since = ctx.event.created;
  await advanceRef(ctx.deps.store, ctx.scope, ref.specId, { failedSince: since, failedSinceEnd: periodEnd }, 'attribute_exists(specId)', {});
  return since;
}

/** A weekly membership's discount is counted here (Stripe's repeating coupons count months) and removed after its payments. */
async function countDiscountedPayment(ctx: Context, ref: StripeRef, invoice: Stripe.Invoice) {
  const left = ref.discountPaymentsLeft ?? 0;
  const discounted = (invoice.total_discount_amounts ?? []).some((d) => d.amount > 0);
  if (left <= 0 || !discounted) return;
  const moved = await advanceRef(ctx.deps.store, ctx.scope, ref.specId, { discountPaymentsLeft: left - 1 }, 'discountPaymentsLeft = :left', { ':left': left });
  if (moved && left === 1) {
    const subscriptionId = subscriptionOf(invoice)!;
    await stripeCall(() => ctx.client.subscriptions.update(subscriptionId, { discounts: '' }, { idempotencyKey: `cc-discount-end-${ctx.event.id}` }));
  }
}

/**
 * The buyer saved a new default card (the Billing Portal's payment-method-update flow): each open
 * invoice of the buyer's memberships is paid with it now, as the sandbox's card-update page does.
 * The outcome arrives as `invoice.paid` / `invoice.payment_failed`.
 */
async function customerUpdated(ctx: Context, customer: Stripe.Customer): Promise<Translation> {
  const previous = (ctx.event.data as { previous_attributes?: { invoice_settings?: unknown } }).previous_attributes;
  const card = idOf(customer.invoice_settings?.default_payment_method as string | { id: string } | null);
  if (!previous?.invoice_settings || !card) return null;
  const open = await stripeCall(() => ctx.client.invoices.list({ customer: customer.id, status: 'open', limit: 10 }));
  for (const invoice of open.data) {
    const subscriptionId = subscriptionOf(invoice);
    if (!subscriptionId || !(await getRef(ctx.deps.store, ctx.scope, specId('mem', ctx.scope, subscriptionId)))) continue;
    try {
      await stripeCall(() =>
        ctx.client.invoices.pay(invoice.id!, { payment_method: card, off_session: true }, { idempotencyKey: `cc-card-update-pay-${invoice.id}-${card}` }),
      );
    } catch (error) {
      if (!(error instanceof ProcessorError && error.code === 'declined')) throw error;
    }
  }
  return null;
}
