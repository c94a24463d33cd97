import { toMajor } from '../platform/money';
import type { OfferRecord } from '../catalog/records';
import type { SubscriberRecord } from './records';

/**
 * Payloads of the subscription events, field by field as the spec's "Subscription event fields"
 * table lists them and in that order. Which optional fields an event carries depends on its type.
 */
export interface InvoiceInfo {
  id: string;
  amountCents: number;
  currency: string;
  paymentIntentId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  attempt?: number;
  nextRetryAt?: string | null;
}

export interface EventOptions {
  /** invoice.* of the very first charge: there is no subscriber yet. */
  noSubscriberYet?: boolean;
  billingReason?: 'initial' | 'renewal';
  invoice?: InvoiceInfo;
  failureMessage?: string;
  declineCode?: string;
}

export const offerBlock = (offer: Pick<OfferRecord, '_id' | 'name' | 'priceCents' | 'currency' | 'frequency'>) => ({
  id: offer._id,
  name: offer.name,
  price: toMajor(offer.priceCents),
  currency: offer.currency,
  frequency: offer.frequency,
});

export function subscriptionEventData(
  type: string,
  sub: SubscriberRecord,
  offer: Pick<OfferRecord, '_id' | 'name' | 'priceCents' | 'currency' | 'frequency'>,
  options: EventOptions = {},
): Record<string, unknown> {
  const subscriberId = options.noSubscriberYet && type.startsWith('invoice.') ? null : sub._id;
  const data: Record<string, unknown> = {
    subscriptionCustomerId: subscriberId,
    subscription: { ...offerBlock(offer), customerId: subscriberId },
  };
  const withState = type === 'customer.subscription.created' || type === 'customer.subscription.updated';
  if (withState)
    data.subscriptionCustomer = { id: sub._id, status: sub.status, active: sub.active, cancelAtPeriodEnd: sub.cancelAtPeriodEnd, paused: sub.paused };
  data.customer = { email: sub.buyerEmail, firstName: sub.firstName, lastName: sub.lastName };
  data.status = sub.status;
  if (type.startsWith('invoice.') && options.billingReason) data.billingReason = options.billingReason;
  if (options.invoice && (type.startsWith('invoice.') || type.startsWith('payment_intent.'))) {
    const invoice = options.invoice;
    data.invoice = {
      id: invoice.id,
      amount: toMajor(invoice.amountCents),
      currency: invoice.currency,
      paymentIntentId: invoice.paymentIntentId,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      ...(invoice.attempt !== undefined ? { attempt: invoice.attempt } : {}),
      ...(invoice.nextRetryAt !== undefined ? { nextRetryAt: invoice.nextRetryAt } : {}),
    };
  }
  if (type !== 'customer.subscription.deleted' && type !== 'customer.subscription.trial_will_end') data.paymentMethod = sub.paymentMethod;
  if (type === 'payment_intent.payment_failed') {
    data.declinedCard = sub.paymentMethod ? { ...sub.paymentMethod, declineCode: options.declineCode ?? 'card_declined' } : null;
    data.failureMessage = options.failureMessage ?? null;
  }
  data.clientReferenceId = sub.clientReferenceId;
  data.metadata = sub.metadata ?? {};
  if (withState) data.portalUrl = sub.portalUrl;
  if (type === 'customer.subscription.updated') {
    if (options.failureMessage) data.failureMessage = options.failureMessage;
    else data.cancelAtPeriodEnd = sub.cancelAtPeriodEnd;
  }
  if (type === 'customer.subscription.pause') data.accessRetained = true;
  if (type === 'customer.subscription.deleted') data.active = false;
  if (type === 'invoice.upcoming' || type === 'customer.subscription.trial_will_end') {
    data.currentPeriodEnd = sub.currentPeriodEnd;
    if (type === 'customer.subscription.trial_will_end') data.trialEnd = sub.trialEnd;
  }
  return data;
}
