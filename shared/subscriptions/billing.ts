import { lookupOffer } from '../catalog/service';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import type { Deps } from '../platform/context';
import { prefixedId } from '../platform/ids';
import { logger } from '../platform/logger';
import { processedMarker, transactOnce } from '../processor/marker';
import type { ChargeFailedData, ChargeSucceededData, MembershipCanceledData, ProcessorNotification } from '../processor/port';
import { findCustomer } from '../sales/service';
import { newSale, saleWrites } from '../sales/transaction';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { subscriptionEventData, type InvoiceInfo } from './events';
import type { SubscriberRecord } from './records';
import { findSubscriberByMembership, subscriberReplace } from './repository';
import { transition } from './state';

/**
 * Processor notifications about memberships: renewal charges (and the first charge after a
 * trial), failed charges with their retries, and the end of a membership. Each is one transaction
 * with the notification's processed marker.
 */

async function load(deps: Deps, scope: Scope, membershipId: string) {
  const sub = await findSubscriberByMembership(deps.store, scope, membershipId);
  if (!sub) {
    logger.warn('processor notification for an unknown membership', { membershipId });
    return undefined;
  }
  const offer = await lookupOffer(deps, scope, sub.subscriptionId);
  if (!offer) return undefined;
  return { sub, offer };
}

export async function onChargeSucceeded(deps: Deps, scope: Scope, notification: ProcessorNotification): Promise<boolean | void> {
  const data = notification.data as unknown as ChargeSucceededData;
  const loaded = await load(deps, scope, data.membershipId);
  if (!loaded) return;
  const { sub, offer } = loaded;
  const customer = await findCustomer(deps, scope, sub.customerId);
  if (!customer) return;
  const now = deps.clock.now().toISOString();
  const move = transition(sub, { type: 'charge_succeeded' });
  const after: SubscriberRecord = {
    ...sub,
    ...(move?.patch ?? {}),
    paymentMethod: data.paymentMethod ?? sub.paymentMethod,
    currentPeriodStart: data.membership.currentPeriodStart,
    currentPeriodEnd: data.membership.currentPeriodEnd,
    openInvoiceId: null,
    updatedAt: now,
  };
  const sale = newSale(
    deps.clock,
    scope,
    {
      type: 'subscription',
      billingReason: data.billingReason,
      productId: '',
      productName: offer.name,
      subscriptionId: offer._id,
      subscriberId: sub._id,
      customerId: customer._id,
      buyerEmail: sub.buyerEmail,
      firstName: sub.firstName,
      lastName: sub.lastName,
      country: sub.country,
      amountCents: data.payment.amountCents,
      originalAmountCents: data.payment.amountCents,
      currency: data.payment.currency,
      discountCode: null,
      paymentIntentId: data.payment.id,
      planId: data.payment.planId,
      membershipId: data.membershipId,
      paymentMethod: after.paymentMethod,
      checkoutSessionId: null,
      clientReferenceId: sub.clientReferenceId,
      metadata: sub.metadata,
      free: false,
    },
    now,
  );
  const invoice: InvoiceInfo = {
    id: sub.openInvoiceId ?? prefixedId('in'),
    amountCents: sale.amountCents,
    currency: sale.currency,
    paymentIntentId: sale.paymentIntentId,
    periodStart: after.currentPeriodStart,
    periodEnd: after.currentPeriodEnd,
  };
  const events: DomainEvent[] = [];
  const add = (type: string, payload: Record<string, unknown>) => events.push(newEvent(scope, deps.clock, type, payload));
  const opts = { billingReason: data.billingReason, invoice };
  if (!sub.openInvoiceId) add('invoice.created', subscriptionEventData('invoice.created', after, offer, opts));
  add('invoice.payment_succeeded', subscriptionEventData('invoice.payment_succeeded', after, offer, opts));
  if (data.billingReason === 'initial') add('payment_intent.succeeded', subscriptionEventData('payment_intent.succeeded', after, offer, { invoice }));
  // The sale, its receipt and one more order for the customer: sales' own writes and events.
  const charge = saleWrites(deps, scope, { sale, customer, countOrder: true, now, reviewLink: false });
  events.push(...charge.events);
  for (const type of move?.events ?? []) add(type, subscriptionEventData(type, after, offer));
  const ops: TransactOp[] = [
    processedMarker(notification.id, notification.created),
    subscriberReplace(scope, sub, after),
    ...charge.ops,
    ...events.map(outboxPut),
  ];
  if (!(await transactOnce(deps, notification.id, ops))) return false;
  return true;
}

export async function onChargeFailed(deps: Deps, scope: Scope, notification: ProcessorNotification): Promise<boolean | void> {
  const data = notification.data as unknown as ChargeFailedData;
  const loaded = await load(deps, scope, data.membershipId);
  if (!loaded) return;
  const { sub, offer } = loaded;
  const now = deps.clock.now().toISOString();
  const move = transition(sub, { type: 'charge_failed', failureMessage: data.failureMessage, final: data.final });
  if (!move) return;
  const invoiceId = sub.openInvoiceId ?? prefixedId('in');
  const after: SubscriberRecord = {
    ...sub,
    ...move.patch,
    openInvoiceId: data.final ? null : invoiceId,
    canceledAt: data.final ? now : sub.canceledAt,
    updatedAt: now,
  };
  const invoice: InvoiceInfo = {
    id: invoiceId,
    amountCents: data.amountCents,
    currency: data.currency,
    paymentIntentId: null,
    periodStart: sub.currentPeriodEnd,
    periodEnd: null,
    attempt: data.attempt,
    nextRetryAt: data.nextRetryAt,
  };
  const events: DomainEvent[] = [];
  const add = (type: string, payload: Record<string, unknown>) => events.push(newEvent(scope, deps.clock, type, payload));
  const opts = { billingReason: data.billingReason, invoice, failureMessage: data.failureMessage, declineCode: data.declineCode };
  if (!sub.openInvoiceId) add('invoice.created', subscriptionEventData('invoice.created', after, offer, opts));
  add('invoice.payment_failed', subscriptionEventData('invoice.payment_failed', after, offer, opts));
  add('payment_intent.payment_failed', subscriptionEventData('payment_intent.payment_failed', after, offer, opts));
  for (const type of move.events)
    add(type, subscriptionEventData(type, after, offer, type === 'customer.subscription.updated' ? { failureMessage: data.failureMessage } : {}));
  const ops = [processedMarker(notification.id, notification.created), subscriberReplace(scope, sub, after), ...events.map(outboxPut)];
  if (!(await transactOnce(deps, notification.id, ops))) return false;
  return true;
}

export async function onMembershipCanceled(deps: Deps, scope: Scope, notification: ProcessorNotification): Promise<boolean | void> {
  const data = notification.data as unknown as MembershipCanceledData;
  const loaded = await load(deps, scope, data.membershipId);
  if (!loaded) return;
  const { sub, offer } = loaded;
  const move = transition(sub, { type: 'period_ended' });
  if (!move) return;
  const now = deps.clock.now().toISOString();
  const after: SubscriberRecord = { ...sub, ...move.patch, canceledAt: now, updatedAt: now };
  const events = move.events.map((type) => newEvent(scope, deps.clock, type, subscriptionEventData(type, after, offer)));
  const ops = [processedMarker(notification.id, notification.created), subscriberReplace(scope, sub, after), ...events.map(outboxPut)];
  if (!(await transactOnce(deps, notification.id, ops))) return false;
  return true;
}
