import { lookupOffer, lookupProduct } from '../catalog/service';
import { creditPurchaseOps } from '../credits/service';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import type { Deps } from '../platform/context';
import { logger } from '../platform/logger';
import { alreadyProcessed } from '../processor/marker';
import type { CheckoutCompletedData, ProcessorNotification } from '../processor/port';
import { normalizeEmail, type SaleRecord } from '../sales/records';
import { newSale, purchaseCustomer, saleWrites } from '../sales/transaction';
import { redeemDiscountOps } from '../storefront/discounts';
import { referralSaleOps } from '../storefront/partners';
import type { SubscriberRecord } from '../subscriptions/records';
import { initialSeatsPut } from '../usage/service';
import { licenseForOrder } from '../licenses/service';
import { initialInvoiceEvents, startSubscription, subscriptionCreatedEvent } from '../subscriptions/transaction';
import { onConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import type { Scope } from '../store/keys';
import { getSession, sessionCompleted } from './repository';
import { cancelRecovery } from './recovery-timer';
import { CHECKOUT_CONSENT_EVENT, type CheckoutSessionRecord } from './records';

/**
 * `checkout.completed`: records the purchase in one transaction that completes the open session
 * (its condition makes it once per session, whichever notification brings it): the customer
 * (created or reused by email), the sale, the subscriber, the receipt capability, and every event
 * the purchase causes, in delivery order.
 */
export async function completeCheckout(deps: Deps, scope: Scope, notification: ProcessorNotification, baseUrl: string): Promise<boolean> {
  const data = notification.data as unknown as CheckoutCompletedData;
  const session = await getSession(deps.store, scope, data.sessionId);
  if (!session) {
    logger.warn('checkout notification for an unknown session', { sessionId: data.sessionId });
    return true;
  }
  // Completed already, by this notification or another one for the same session: a duplicate.
  if (session.status === 'completed') return false;
  for (const withExtras of [true, false]) {
    const plan = await buildCompletion(deps, scope, data, session, baseUrl, withExtras);
    const outcome = await onConditionFailed(
      deps.store.transact(plan.ops).then(() => 'done' as const),
      async (error) => {
        if (await alreadyProcessed(deps.store, notification.id)) return 'duplicate' as const;
        // Another notification (another id, same session) completed it meanwhile: this one is a
        // duplicate of that completion, not a failure.
        if ((await getSession(deps.store, scope, data.sessionId))?.status === 'completed') return 'duplicate' as const;
        // A discount past its uses or a referral that no longer applies must not lose a paid sale.
        if (withExtras && plan.hasExtras) return 'without extras' as const;
        throw error;
      },
    );
    if (outcome === 'duplicate') return false;
    if (outcome === 'without extras') continue;
    await cancelRecovery(deps, scope, session);
    return true;
  }
  return true;
}

/**
 * Composes the purchase from the capabilities that own its records: the customer and the sale
 * (sales), the subscriber (subscriptions), the discount and referral (storefront), the credit
 * grant (credits). This module only decides what applies and the order of the events.
 */
async function buildCompletion(deps: Deps, scope: Scope, data: CheckoutCompletedData, session: CheckoutSessionRecord, baseUrl: string, withExtras: boolean) {
  const now = deps.clock.now().toISOString();
  const email = normalizeEmail(data.buyer.email);
  const buyer = {
    email,
    firstName: data.buyer.firstName ?? undefined,
    lastName: data.buyer.lastName ?? undefined,
    country: data.buyer.country ?? undefined,
    locale: session.buyerLocale ?? undefined,
  };
  // No processed marker of the notification: the session's `open → completed` condition is the
  // once-guard of a completion (a redelivered or second notification finds it completed), and a
  // marker would be one more item billed twice in the transaction.
  const ops: TransactOp[] = [];
  const events: DomainEvent[] = [];
  let hasExtras = false;

  const product = session.kind === 'one_time' ? await lookupProduct(deps, scope, session.productId) : undefined;
  const offer = session.kind === 'subscription' ? await lookupOffer(deps, scope, session.productId) : undefined;
  const upsell = session.kind === 'one_time' ? (session.upsell ?? null) : null;
  const charged = Boolean(data.payment) || (session.kind === 'one_time' && session.amountCents === 0);

  const purchase = await purchaseCustomer(deps, scope, { buyer, productId: session.productId, charged, now });
  const customer = purchase.customer;
  ops.push(...purchase.ops);

  let sale: SaleRecord | undefined = charged
    ? newSale(
        deps.clock,
        scope,
        {
          type: session.kind,
          ...(session.kind === 'subscription' ? { billingReason: 'initial' as const } : {}),
          productId: session.kind === 'one_time' ? session.productId : '',
          productName: session.productName,
          subscriptionId: session.kind === 'subscription' ? session.productId : null,
          subscriberId: null,
          customerId: customer._id,
          buyerEmail: email,
          firstName: customer.firstName,
          lastName: customer.lastName,
          country: customer.country,
          amountCents: data.payment?.amountCents ?? 0,
          // With an upsell taken the original is the product's plus the upsell's, so the code's saving stays right.
          originalAmountCents: session.originalAmountCents + (upsell?.amountCents ?? 0),
          currency: session.currency,
          discountCode: session.discountCode,
          ...(upsell && data.payment
            ? {
                lines: [
                  { productId: session.productId, productName: session.productName, amountCents: data.payment.amountCents - upsell.amountCents },
                  { productId: upsell.productId, productName: upsell.productName, amountCents: upsell.amountCents, upsellId: upsell.upsellId },
                ],
              }
            : {}),
          paymentIntentId: data.payment?.id ?? null,
          planId: data.payment?.planId ?? null,
          membershipId: data.membership?.id ?? null,
          paymentMethod: data.paymentMethod,
          checkoutSessionId: session._id,
          clientReferenceId: session.clientReferenceId,
          metadata: recoveredMetadata(session),
          free: !data.payment,
          ...(data.tax ? { taxCents: data.tax.amountCents, taxRatePercent: data.tax.ratePercent, vatNumber: data.tax.vatNumber } : {}),
        },
        now,
      )
    : undefined;

  let subscriber: SubscriberRecord | undefined;
  if (session.kind === 'subscription' && data.membership && offer) {
    const started = await startSubscription(deps, scope, {
      offer,
      customer,
      email,
      membership: data.membership,
      planId: session.planId,
      paymentMethod: data.paymentMethod,
      clientReferenceId: session.clientReferenceId,
      metadata: session.metadata,
      baseUrl,
      now,
    });
    subscriber = started.subscriber;
    ops.push(...started.ops);
    if (session.seats) ops.push(initialSeatsPut(scope, subscriber._id, session.seats, data.membership.currentPeriodStart, now));
    if (sale) sale = { ...sale, subscriberId: subscriber._id };
  }

  // Events, in the order a receiver sees them: the first invoice, the order, the subscription.
  if (subscriber && offer && sale) events.push(...initialInvoiceEvents(deps, scope, subscriber, offer, sale));
  if (sale) {
    const recorded = saleWrites(deps, scope, { sale, customer, countOrder: false, now });
    sale = recorded.sale;
    ops.push(...recorded.ops);
    events.push(...recorded.events);
    // A use claimed with the payment (sandbox) is counted already; otherwise (Stripe's own page)
    // it is counted here, and a code used up meanwhile does not cost the buyer the paid sale.
    if (withExtras && session.discountId && !session.discountClaimed) {
      ops.push(...redeemDiscountOps(scope, session.discountId));
      hasExtras = true;
    }
    if (withExtras && session.referralCode && sale.amountCents > 0) {
      const referral = await referralSaleOps(deps, scope, {
        referralCode: session.referralCode,
        saleId: sale._id,
        amountCents: sale.amountCents,
        currency: sale.currency,
        buyerEmail: email,
        productId: session.productId,
      });
      if (referral.length) hasExtras = true;
      ops.push(...referral);
    }
  }
  // A licence key per bought product that issues them (the product and a taken upsell), in this
  // transaction: the key exists if and only if the order does.
  if (sale && session.kind === 'one_time') {
    const bought = [product, upsell ? await lookupProduct(deps, scope, upsell.productId) : undefined].filter((p): p is NonNullable<typeof p> =>
      Boolean(p?.licenseKeys?.enabled),
    );
    for (const item of bought) {
      const issued = await licenseForOrder(deps, scope, { product: item, orderId: sale._id, email, now });
      ops.push(...issued.ops);
      events.push(...issued.events);
    }
  }
  if (subscriber && offer) events.push(subscriptionCreatedEvent(deps, scope, subscriber, offer));
  if (product && sale && product.productType === 'credits') {
    const credit = await creditPurchaseOps(deps, scope, { product, customer, sale, savedCardId: data.savedCard ? (data.paymentMethod?.id ?? null) : null });
    ops.push(...credit.ops);
    events.push(...credit.events);
  }

  // The newsletter consent given with the payment reaches the buyer's contact (audience): on the
  // order's event when there is a sale, so that the audience writes the contact once with the
  // purchase and the consent (one consumer, no race between two); otherwise as an event of its own.
  // It comes on the payment's notice; a session paid before the upgrade holds it itself.
  const given = data.marketingConsent ?? session.marketingConsent ?? undefined;
  const consent = given ? { source: 'checkout', ...given } : undefined;
  const orderEvent = events.find((e) => e.type === 'order.completed');
  if (consent && orderEvent) orderEvent.internal = { ...orderEvent.internal, marketingConsent: consent };
  else if (consent) {
    events.push(
      newEvent(scope, deps.clock, CHECKOUT_CONSENT_EVENT, {
        email,
        firstName: customer.firstName ?? null,
        lastName: customer.lastName ?? null,
        consent,
      }),
    );
  }
  ops.push(
    sessionCompleted(scope, session._id, {
      saleId: sale?._id ?? null,
      subscriberId: subscriber?._id ?? null,
      completedAt: now,
      ...(data.marketingConsent ? { marketingConsent: data.marketingConsent } : {}),
    }),
  );
  ops.push(...events.map(outboxPut));
  return { ops, subscriber, hasExtras };
}

/** The order's metadata: the seller's, and for a purchase through an abandoned-checkout mail's link, that it was recovered. */
const recoveredMetadata = (session: CheckoutSessionRecord): Record<string, unknown> =>
  session.recoveredFrom ? { ...session.metadata, recovered: true, recoveredFrom: session.recoveredFrom } : session.metadata;
