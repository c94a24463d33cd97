import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import type { Deps } from '../../platform/context';
import {
  ProcessorError,
  type CreateCheckoutInput,
  type LiveMembership,
  type LivePayment,
  type MembershipAdjustment,
  type MembershipChargeInput,
  type PayResult,
  type RecoveryPolicy,
  type ProcessorPort,
} from '../../processor/port';
import type { Scope } from '../../store/keys';
import { discountTerms, introCharges } from '../../processor/intro';
import { stripeClient } from './client';
import * as billing from './billing';
import { paymentMethodOf } from './billing';
import { stripeCall } from './errors';
import { META, STRIPE_INTERVALS, frequencyOf, specId, type StripePriceRecord, type StripeRef } from './records';
import { ensureRef, getPrice, getRef, putPrice } from './refs';
import { eraseStripeBuyer } from './erase';

/**
 * The intro coupon of a subscription checkout: the regular price less the intro amount, for the
 * intro's payments counted from the first charge; null without an intro (or with a trial, whose
 * first charge is not at checkout: retention never offers both).
 */
export function introCoupon(input: Pick<CreateCheckoutInput, 'intro' | 'interval' | 'trialDays' | 'amountCents'>, regularCents: number) {
  if (!input.intro || input.trialDays) return null;
  const rule = introCharges(input.amountCents, input.intro, true);
  if (rule.firstChargeCents >= input.amountCents) return null;
  const recurring = STRIPE_INTERVALS[input.interval ?? 'monthly'];
  return { amountOff: regularCents - rule.firstChargeCents, terms: discountTerms(input.intro.payments, recurring.interval, recurring.interval_count) };
}

const iso = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toISOString() : null);
const lower = (currency: string) => currency.toLowerCase();

export { paymentMethodOf } from './billing';

/**
 * The processor port on one seller's Stripe account (one account+mode and its secret key). Spec
 * ids stay what the API shows; the Stripe ids are kept beside them (STRIPE_REF records). Results
 * of checkouts, renewals, refunds and disputes arrive as Stripe events on the Stripe webhook route
 * (webhook.ts), translated into the same notifications the sandbox sends.
 */
export class StripeProcessor implements ProcessorPort {
  readonly client: Stripe;

  constructor(
    private readonly deps: Deps,
    private readonly scope: Scope,
    secretKey: string,
  ) {
    this.client = stripeClient(secretKey, deps.config);
  }

  /** One call (errors mapped, rate limits retried): `run` reuses the idempotency key made before it. */
  private call<T>(run: () => Promise<T>): Promise<T> {
    return stripeCall(run);
  }

  private context(scope: Scope): billing.StripeContext {
    return { deps: this.deps, scope, client: this.client };
  }

  private ownMetadata(extra: Record<string, string> = {}) {
    return { [META.account]: this.scope.accountId, [META.mode]: this.scope.mode, ...extra };
  }

  // ---- checkout ----

  /**
   * One Stripe product and one active price per catalog product or offer: reused while the amount,
   * currency and frequency are unchanged; a change creates a new price and archives the old one
   * (Stripe prices are immutable).
   */
  async priceFor(scope: Scope, input: CreateCheckoutInput): Promise<StripePriceRecord> {
    const amount = input.originalAmountCents ?? input.amountCents;
    const interval = input.kind === 'subscription' ? (input.interval ?? 'monthly') : null;
    const productId = input.productId ?? `session-${input.sessionId}`;
    const current = await getPrice(this.deps.store, scope, productId);
    if (current && current.amountCents === amount && current.currency === input.currency && current.interval === interval) return current;
    const stripeProductId =
      current?.stripeProductId ??
      (
        await this.call(() =>
          this.client.products.create(
            { name: input.description, metadata: this.ownMetadata({ [META.product]: productId }) },
            { idempotencyKey: `cc-product-${scope.mode}-${productId}` },
          ),
        )
      ).id;
    const price = await this.call(() =>
      this.client.prices.create(
        {
          product: stripeProductId,
          unit_amount: amount,
          currency: lower(input.currency),
          ...(interval ? { recurring: STRIPE_INTERVALS[interval] } : {}),
          metadata: this.ownMetadata({ [META.product]: productId }),
        },
        { idempotencyKey: `cc-price-${scope.mode}-${productId}-${amount}-${lower(input.currency)}-${interval ?? 'once'}` },
      ),
    );
    if (current)
      await this.call(() => this.client.prices.update(current.stripePriceId, { active: false }, { idempotencyKey: `cc-archive-${current.stripePriceId}` }));
    const record: StripePriceRecord = {
      productId,
      stripeProductId,
      stripePriceId: price.id,
      planId: specId('plan', scope, price.id),
      amountCents: amount,
      currency: input.currency,
      interval,
      updatedAt: this.deps.clock.now().toISOString(),
    };
    await putPrice(this.deps.store, scope, record);
    await ensureRef(this.deps.store, scope, { specId: record.planId, stripeId: price.id, kind: 'plan' });
    return record;
  }

  async createCheckout(scope: Scope, input: CreateCheckoutInput) {
    const price = await this.priceFor(scope, input);
    const subscription = input.kind === 'subscription';
    const original = input.originalAmountCents ?? input.amountCents;
    let coupon: string | undefined;
    // An intro price (processor/intro.ts): a coupon of the difference from the first invoice on,
    // for as many months as its payments span; weekly, counted by the webhook (translate.ts).
    const intro = subscription ? introCoupon(input, original) : null;
    if (intro) {
      coupon = (
        await this.call(() =>
          this.client.coupons.create(
            {
              amount_off: intro.amountOff,
              currency: lower(input.currency),
              ...(intro.terms.duration === 'repeating'
                ? { duration: 'repeating' as const, duration_in_months: intro.terms.months }
                : { duration: 'forever' as const }),
              max_redemptions: 1,
              name: 'Intro price',
              metadata: this.ownMetadata({ [META.session]: input.sessionId }),
            },
            { idempotencyKey: `cc-intro-coupon-${input.sessionId}` },
          ),
        )
      ).id;
    } else if (original > input.amountCents) {
      // The discount the service resolved, as a one-use coupon: once for a purchase, on every
      // renewal for a subscription (the sandbox also renews at the discounted amount).
      coupon = (
        await this.call(() =>
          this.client.coupons.create(
            {
              amount_off: original - input.amountCents,
              currency: lower(input.currency),
              duration: subscription ? 'forever' : 'once',
              max_redemptions: 1,
              ...(input.discountCode ? { name: input.discountCode.slice(0, 40) } : {}),
              metadata: this.ownMetadata({ [META.session]: input.sessionId }),
            },
            { idempotencyKey: `cc-coupon-${input.sessionId}` },
          ),
        )
      ).id;
    }
    const sellerMetadata = Object.fromEntries(
      Object.entries(input.metadata ?? {})
        .slice(0, 40)
        .map(([key, value]) => [key.slice(0, 40), (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, 500)]),
    );
    const metadata = {
      ...sellerMetadata,
      ...this.ownMetadata({
        [META.session]: input.sessionId,
        [META.plan]: price.planId,
        [META.currency]: input.currency,
        ...(input.offerSaveCard ? { [META.saveCard]: '1' } : {}),
        ...(intro?.terms.duration === 'forever' ? { [META.introPayments]: String(intro.terms.counted) } : {}),
      }),
    };
    const session = await this.call(() =>
      this.client.checkout.sessions.create(
        {
          mode: subscription ? 'subscription' : 'payment',
          // A buyer paying more than the price (pay what you want) pays an inline price of the
          // same Stripe product: the catalog's price stays the one reusable price.
          line_items: [
            !subscription && input.amountCents > original
              ? { price_data: { product: price.stripeProductId, unit_amount: input.amountCents, currency: lower(input.currency) }, quantity: 1 }
              : { price: price.stripePriceId, quantity: 1 },
          ],
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          client_reference_id: input.clientReferenceId ?? input.sessionId,
          // Stripe's page fills in the address a buy link or the API already knows.
          ...(input.buyerEmail ? { customer_email: input.buyerEmail } : {}),
          metadata,
          ...(coupon ? { discounts: [{ coupon }] } : {}),
          // Stripe Tax, when the seller turned it on for this account and mode: tax on top of the
          // price from the buyer's address, and the buyer may enter a VAT number.
          ...(input.tax?.automatic ? { automatic_tax: { enabled: true }, tax_id_collection: { enabled: true } } : {}),
          ...(subscription
            ? {
                subscription_data: {
                  metadata: this.ownMetadata({ [META.session]: input.sessionId }),
                  ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
                },
              }
            : {
                customer_creation: 'always' as const,
                payment_intent_data: {
                  metadata: this.ownMetadata({ [META.session]: input.sessionId }),
                  // Credits with auto-refill: keep the card for off-session top-offs.
                  ...(input.offerSaveCard ? { setup_future_usage: 'off_session' as const } : {}),
                },
              }),
        },
        { idempotencyKey: `cc-checkout-${input.sessionId}` },
      ),
    );
    return { checkoutId: session.id, url: session.url ?? '', planId: price.planId };
  }

  /** Stripe hosts its own checkout page; the sandbox's page and control routes do not apply. */
  async payCheckout(): Promise<PayResult> {
    throw new ProcessorError("Stripe checkouts are paid on Stripe's own page", 'invalid');
  }
  async completeFreeCheckout(): Promise<PayResult> {
    throw new ProcessorError("Stripe checkouts are completed on Stripe's own page", 'invalid');
  }

  async verifyNotification() {
    return { ok: false as const, reason: 'Stripe events arrive on the Stripe webhook route' };
  }

  // ---- saved cards ----

  async chargeSavedCard(scope: Scope, input: { paymentMethodId: string; amountCents: number; currency: string; description: string }) {
    const card = await getRef(this.deps.store, scope, input.paymentMethodId);
    if (!card || card.kind !== 'card' || !card.customerId) throw new ProcessorError('No such saved card', 'not_found');
    const chargeKey = `cc-charge-${randomUUID()}`;
    const intent = await this.call(() =>
      this.client.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: lower(input.currency),
          customer: card.customerId!,
          payment_method: card.stripeId,
          off_session: true,
          confirm: true,
          description: input.description,
          metadata: this.ownMetadata(),
        },
        { idempotencyKey: chargeKey },
      ),
    );
    if (intent.status !== 'succeeded') throw new ProcessorError('The card needs the buyer to confirm the charge', 'declined');
    const paymentId = specId('pay', scope, intent.id);
    await ensureRef(this.deps.store, scope, {
      specId: paymentId,
      stripeId: intent.id,
      kind: 'payment',
      amountCents: intent.amount,
      currency: input.currency,
      membershipId: null,
      refundedCents: 0,
    });
    return { paymentId, paymentMethod: card.paymentMethod! };
  }

  // ---- memberships ----

  private async stripeIdOf(scope: Scope, id: string, kind: StripeRef['kind'], what: string): Promise<StripeRef> {
    const ref = /^[a-z]+_[0-9a-f]{24}$/.test(id) ? await getRef(this.deps.store, scope, id) : undefined;
    if (!ref || ref.kind !== kind) throw new ProcessorError(`No such ${what}`, 'not_found');
    return ref;
  }

  private async live(scope: Scope, ref: StripeRef, sub: Stripe.Subscription): Promise<LiveMembership> {
    const item = sub.items.data[0];
    const pm = typeof sub.default_payment_method === 'object' ? sub.default_payment_method : null;
    return {
      id: ref.specId,
      status:
        sub.status === 'trialing'
          ? 'trialing'
          : sub.status === 'past_due' || sub.status === 'unpaid'
            ? 'past_due'
            : sub.status === 'canceled' || sub.status === 'incomplete_expired'
              ? 'canceled'
              : 'active',
      // A pause with an end is a skip of renewals (save offer): the membership runs on, unbilled.
      paused: Boolean(sub.pause_collection && !sub.pause_collection.resumes_at),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      currentPeriodStart: iso(item?.current_period_start) ?? iso(sub.start_date)!,
      currentPeriodEnd: iso(item?.current_period_end) ?? iso(sub.start_date)!,
      trialEnd: iso(sub.trial_end),
      amountCents: item?.price.unit_amount ?? 0,
      currency: sub.currency.toUpperCase(),
      interval: frequencyOf(item?.price.recurring?.interval),
      retries: ref.failedPeriodEnd === ref.periodEnd ? 0 : (ref.failedAttempt ?? 0),
      paymentMethod: paymentMethodOf(scope, pm)!,
    };
  }

  /** Usage and seat charges: an off-session payment of the subscription's card (billing.ts). */
  async chargeMembership(scope: Scope, membershipId: string, input: MembershipChargeInput) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    return billing.chargeMembership(this.context(scope), ref, input);
  }

  async adjustMembership(scope: Scope, membershipId: string, change: MembershipAdjustment): Promise<LiveMembership> {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const { sub, periodEnd } = await billing.adjustMembership(this.context(scope), ref, change);
    const live = await this.live(scope, ref, sub);
    // Skipped renewals: the paid-through date is where collection resumes.
    return periodEnd ? { ...live, currentPeriodEnd: new Date(periodEnd * 1000).toISOString() } : live;
  }

  async setRecoveryPolicy(scope: Scope, policy: RecoveryPolicy | null) {
    await billing.setRecoveryPolicy(this.context(scope), policy);
  }

  async detachSavedCard(scope: Scope, paymentMethodId: string) {
    await billing.detachSavedCard(this.context(scope), paymentMethodId);
  }

  /** A buyer erased: see erase.ts. */
  async eraseBuyer(scope: Scope, buyer: { email: string; paymentMethodIds: string[] }) {
    await eraseStripeBuyer(this.context(scope), buyer);
  }

  async getMembership(scope: Scope, membershipId: string) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const sub = await this.call(() => this.client.subscriptions.retrieve(ref.stripeId, { expand: ['default_payment_method'] }));
    return this.live(scope, ref, sub);
  }

  /**
   * A Billing Portal session in the payment-method-update flow for the subscription's customer: the
   * buyer enters a new card on Stripe's page and comes back to `returnUrl`. Stripe makes the card
   * the default for the customer's subscriptions; its retry settings decide when an open invoice
   * is tried again. Portal sessions are short-lived, so one is made per visit.
   */
  async cardUpdateSession(scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const sub = await this.call(() => this.client.subscriptions.retrieve(ref.stripeId));
    const customer = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
    const portalKey = `cc-card-update-${randomUUID()}`;
    const session = await this.call(() =>
      this.client.billingPortal.sessions.create(
        {
          customer,
          return_url: input.returnUrl,
          flow_data: { type: 'payment_method_update', after_completion: { type: 'redirect', redirect: { return_url: input.returnUrl } } },
        },
        { idempotencyKey: portalKey },
      ),
    );
    return { url: session.url, expiresAt: new Date(this.deps.clock.nowMs() + 5 * 60_000).toISOString() };
  }

  async pauseMembership(scope: Scope, membershipId: string) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const key = `cc-pause-${randomUUID()}`;
    const sub = await this.call(() =>
      this.client.subscriptions.update(ref.stripeId, { pause_collection: { behavior: 'void' }, expand: ['default_payment_method'] }, { idempotencyKey: key }),
    );
    return this.live(scope, ref, sub);
  }

  async resumeMembership(scope: Scope, membershipId: string) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const key = `cc-resume-${randomUUID()}`;
    const sub = await this.call(() =>
      this.client.subscriptions.update(
        ref.stripeId,
        { pause_collection: '', cancel_at_period_end: false, expand: ['default_payment_method'] },
        { idempotencyKey: key },
      ),
    );
    return this.live(scope, ref, sub);
  }

  async cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }) {
    const ref = await this.stripeIdOf(scope, membershipId, 'membership', 'membership');
    const key = `cc-cancel-${randomUUID()}`;
    const sub = options.atPeriodEnd
      ? await this.call(() =>
          this.client.subscriptions.update(ref.stripeId, { cancel_at_period_end: true, expand: ['default_payment_method'] }, { idempotencyKey: key }),
        )
      : await this.call(() => this.client.subscriptions.cancel(ref.stripeId, { expand: ['default_payment_method'] }, { idempotencyKey: key }));
    return this.live(scope, ref, sub);
  }

  // ---- payments ----

  async refund(scope: Scope, paymentId: string, amountCents?: number) {
    const ref = await this.stripeIdOf(scope, paymentId, 'payment', 'payment');
    const key = `cc-refund-${randomUUID()}`;
    await this.call(() =>
      this.client.refunds.create({ payment_intent: ref.stripeId, ...(amountCents ? { amount: amountCents } : {}) }, { idempotencyKey: key }),
    );
  }

  /** Disputes are opened by the buyer's bank, never through the API. */
  async dispute(): Promise<void> {
    throw new ProcessorError("Disputes are opened by the buyer's bank, not by the seller", 'invalid');
  }

  async getPayment(scope: Scope, paymentId: string): Promise<LivePayment> {
    const ref = await this.stripeIdOf(scope, paymentId, 'payment', 'payment');
    const intent = await this.call(() => this.client.paymentIntents.retrieve(ref.stripeId, { expand: ['latest_charge', 'payment_method'] }));
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const refunded = charge?.amount_refunded ?? 0;
    return {
      id: ref.specId,
      status: charge?.disputed ? 'disputed' : refunded >= intent.amount && refunded > 0 ? 'refunded' : refunded > 0 ? 'partially_refunded' : 'succeeded',
      amountCents: intent.amount,
      refundedCents: refunded,
      currency: intent.currency.toUpperCase(),
      membershipId: ref.membershipId ?? null,
      paymentMethod: paymentMethodOf(scope, typeof intent.payment_method === 'object' ? intent.payment_method : null),
      createdAt: iso(intent.created)!,
    };
  }
}
