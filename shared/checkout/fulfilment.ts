import { getOffer, getProduct } from '../catalog/repository';
import { creditPurchaseOps } from '../credits/service';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import type { Deps } from '../platform/context';
import { objectId, prefixedId, randomBase62 } from '../platform/ids';
import { logger } from '../platform/logger';
import { alreadyProcessed, processedMarker } from '../processor/marker';
import type { Buyer, PaymentMethod } from '../processor/port';
import { customerCreatedOnSaleData, orderCompletedData } from '../sales/events';
import { normalizeEmail, type CustomerRecord, type SaleRecord } from '../sales/records';
import { customerOrderUpdate, customerPuts, findCustomerByEmail, salePuts } from '../sales/repository';
import { receiptPut } from '../sales/service';
import { redeemDiscountOps } from '../storefront/discounts';
import { referralSaleOps } from '../storefront/partners';
import { subscriptionEventData } from '../subscriptions/events';
import type { SubscriberRecord } from '../subscriptions/records';
import { findSubscriberOf, membershipPointer, subscriberItem, subscriberPuts } from '../subscriptions/repository';
import { portalUrlFor } from '../subscriptions/service';
import { ConditionFailed, type TransactOp } from '../store/store';
import { keys } from '../store/keys';
import { CUSTOMER } from '../sales/records';
import type { Scope } from '../store/keys';
import { getSession, sessionCompleted } from './repository';
import type { CheckoutSessionRecord } from './records';

export interface ProcessorNotification {
  id: string;
  type: string;
  created: number;
  accountId: string;
  mode: Scope['mode'];
  data: Record<string, unknown>;
}

interface CheckoutCompletedData {
  checkoutId: string;
  sessionId: string;
  buyer: { email: string; firstName: string | null; lastName: string | null; country: string | null };
  paymentMethod: PaymentMethod | null;
  savedCard: boolean;
  payment: { id: string; amountCents: number; currency: string; planId: string } | null;
  membership: { id: string; status: 'active' | 'trialing'; currentPeriodStart: string; currentPeriodEnd: string; trialEnd: string | null } | null;
}

/**
 * `checkout.completed`: records the purchase in one transaction with the notification's processed
 * marker: the customer (created or reused by email), the sale, the subscriber, the receipt
 * capability, and every event the purchase causes, in delivery order.
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
    const plan = await buildCompletion(deps, scope, notification, data, session, baseUrl, withExtras);
    try {
      await deps.store.transact(plan.ops);
    } catch (error) {
      if (error instanceof ConditionFailed) {
        if (await alreadyProcessed(deps.store, notification.id)) return false;
        // Another notification (another id, same session) completed it meanwhile: this one is a
        // duplicate of that completion, not a failure.
        if ((await getSession(deps.store, scope, data.sessionId))?.status === 'completed') return false;
        // A discount past its uses or a referral that no longer applies must not lose a paid sale.
        if (withExtras && plan.hasExtras) continue;
      }
      throw error;
    }
    return true;
  }
  return true;
}

async function buildCompletion(
  deps: Deps,
  scope: Scope,
  notification: ProcessorNotification,
  data: CheckoutCompletedData,
  session: CheckoutSessionRecord,
  baseUrl: string,
  withExtras: boolean,
) {
  const now = deps.clock.now().toISOString();
  const email = normalizeEmail(data.buyer.email);
  const buyer: Buyer = { email, firstName: data.buyer.firstName ?? undefined, lastName: data.buyer.lastName ?? undefined, country: data.buyer.country ?? undefined };
  const ops: TransactOp[] = [processedMarker(notification.id, notification.created)];
  const events: DomainEvent[] = [];
  const event = (type: string, payload: Record<string, unknown>) => events.push(newEvent(scope, deps.clock, type, payload));
  let hasExtras = false;

  const product = session.kind === 'one_time' ? await getProduct(deps.store, scope, session.productId) : undefined;
  const offer = session.kind === 'subscription' ? await getOffer(deps.store, scope, session.productId) : undefined;
  const charged = Boolean(data.payment) || (session.kind === 'one_time' && session.amountCents === 0);

  // Customer: created or reused by email.
  const existing = await findCustomerByEmail(deps.store, scope, email);
  let customer: CustomerRecord;
  if (existing) {
    customer = {
      ...existing,
      firstName: buyer.firstName ?? existing.firstName,
      lastName: buyer.lastName ?? existing.lastName,
      country: buyer.country ?? existing.country,
      productIds: existing.productIds.includes(session.productId) ? existing.productIds : [...existing.productIds, session.productId],
      numberOfOrders: existing.numberOfOrders + (charged ? 1 : 0),
      updatedAt: now,
    };
    const { numberOfOrders: _n, ...set } = customer;
    ops.push(charged ? customerOrderUpdate(scope, existing, set) : { update: customerKey(scope, existing), set: set as Record<string, unknown> });
  } else {
    customer = {
      _id: objectId(deps.clock),
      userId: scope.accountId,
      buyerEmail: email,
      firstName: buyer.firstName ?? null,
      lastName: buyer.lastName ?? null,
      country: buyer.country ?? null,
      productId: session.productId,
      productIds: [session.productId],
      testMode: scope.mode === 'test',
      numberOfOrders: charged ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    };
    ops.push(...customerPuts(scope, customer));
  }

  let sale: SaleRecord | undefined;
  if (charged) {
    sale = {
      _id: objectId(deps.clock),
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
      originalAmountCents: session.originalAmountCents,
      currency: session.currency,
      discountCode: session.discountCode,
      status: 'completed',
      refundedCents: 0,
      paymentIntentId: data.payment?.id ?? null,
      planId: data.payment?.planId ?? null,
      membershipId: data.membership?.id ?? null,
      paymentMethod: data.paymentMethod,
      checkoutSessionId: session._id,
      clientReferenceId: session.clientReferenceId,
      metadata: session.metadata,
      free: !data.payment,
      testMode: scope.mode === 'test',
      createdAt: now,
    };
  }

  let subscriber: SubscriberRecord | undefined;
  if (session.kind === 'subscription' && data.membership && offer) {
    const previous = await findSubscriberOf(deps.store, scope, offer._id, email);
    const id = previous?._id ?? objectId(deps.clock);
    const portalToken = previous?.portalToken ?? randomBase62(32);
    subscriber = {
      _id: id,
      subscriptionId: offer._id,
      customerId: customer._id,
      buyerEmail: email,
      firstName: customer.firstName,
      lastName: customer.lastName,
      country: customer.country,
      status: data.membership.status,
      active: true,
      cancelAtPeriodEnd: false,
      paused: false,
      membershipId: data.membership.id,
      planId: session.planId,
      paymentMethod: data.paymentMethod,
      clientReferenceId: session.clientReferenceId,
      metadata: session.metadata,
      currentPeriodStart: data.membership.currentPeriodStart,
      currentPeriodEnd: data.membership.currentPeriodEnd,
      trialEnd: data.membership.trialEnd,
      failureMessage: null,
      openInvoiceId: null,
      portalToken,
      portalUrl: portalUrlFor(baseUrl, offer._id, id, portalToken),
      testMode: scope.mode === 'test',
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
      canceledAt: null,
    };
    if (previous) {
      // A returning buyer of the same offer keeps their single subscriber record.
      ops.push({ put: subscriberItem(scope, subscriber), condition: 'updatedAt = :seen', values: { ':seen': previous.updatedAt } }, membershipPointer(scope, data.membership.id, id));
    } else ops.push(...subscriberPuts(scope, subscriber));
    if (sale) sale.subscriberId = id;
  }

  if (sale) {
    // The receipt first: it puts its token on the sale before the sale is written.
    const receipt = receiptPut(scope, sale);
    ops.push(...salePuts(scope, sale), receipt);
    if (withExtras && session.discountId) {
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

  // Events, in the order a receiver sees them.
  if (subscriber && offer && sale) {
    const invoice = { id: prefixedId('in'), amountCents: sale.amountCents, currency: sale.currency, paymentIntentId: sale.paymentIntentId, periodStart: subscriber.currentPeriodStart, periodEnd: subscriber.currentPeriodEnd };
    const opts = { noSubscriberYet: true, billingReason: 'initial' as const, invoice };
    event('invoice.created', subscriptionEventData('invoice.created', subscriber, offer, opts));
    event('invoice.payment_succeeded', subscriptionEventData('invoice.payment_succeeded', subscriber, offer, opts));
    event('payment_intent.succeeded', subscriptionEventData('payment_intent.succeeded', subscriber, offer, { invoice }));
  }
  if (sale) {
    event('order.completed', orderCompletedData(sale));
    event('customer.created', customerCreatedOnSaleData(sale, customer));
  }
  if (subscriber && offer) event('customer.subscription.created', subscriptionEventData('customer.subscription.created', subscriber, offer));
  if (product && sale && product.productType === 'credits') {
    const credit = await creditPurchaseOps(deps, scope, { product, customer, sale, savedCardId: data.savedCard ? data.paymentMethod?.id ?? null : null });
    ops.push(...credit.ops);
    events.push(...credit.events);
  }

  ops.push(sessionCompleted(scope, session._id, { saleId: sale?._id ?? null, subscriberId: subscriber?._id ?? null, completedAt: now }));
  ops.push(...events.map(outboxPut));
  return { ops, subscriber, hasExtras };
}

const customerKey = (scope: Scope, customer: CustomerRecord) => keys.entity(scope, CUSTOMER, customer._id);

