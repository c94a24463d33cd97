import type { OfferRecord } from '../catalog/records';
import type { Deps } from '../platform/context';
import { newEvent, type DomainEvent } from '../platform/events';
import { objectId, prefixedId, randomBase62 } from '../platform/ids';
import type { CheckoutCompletedData, PaymentMethod } from '../processor/port';
import type { CustomerRecord, SaleRecord } from '../sales/records';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { subscriptionEventData } from './events';
import type { SubscriberRecord } from './records';
import { findSubscriberOf, membershipPointer, subscriberPuts, subscriberReplace } from './repository';
import { portalUrlFor } from './service';

/**
 * The subscriptions side of a checkout's fulfilment: the subscriber record and the events that
 * start a subscription, as writes and events the checkout composes into its one transaction.
 */

export interface SubscriptionStart {
  offer: OfferRecord;
  customer: CustomerRecord;
  /** The buyer's normalised email. */
  email: string;
  membership: NonNullable<CheckoutCompletedData['membership']>;
  planId: string;
  paymentMethod: PaymentMethod | null;
  clientReferenceId: string | null;
  metadata: Record<string, unknown>;
  /** Public base address of the API, for the portal link. */
  baseUrl: string;
  now: string;
}

/**
 * The subscriber of a paid (or trialing) checkout. A returning buyer of the same offer keeps their
 * single subscriber record and portal token; the write is guarded by the `updatedAt` it was read
 * with. A new one gets its guards (one per buyer per offer, mem_ pointer, locator, portal token).
 */
export async function startSubscription(deps: Deps, scope: Scope, input: SubscriptionStart): Promise<{ subscriber: SubscriberRecord; ops: TransactOp[] }> {
  const { offer, customer, membership, now } = input;
  const previous = await findSubscriberOf(deps.store, scope, offer._id, input.email);
  const id = previous?._id ?? objectId(deps.clock);
  const portalToken = previous?.portalToken ?? randomBase62(32);
  const subscriber: SubscriberRecord = {
    _id: id,
    subscriptionId: offer._id,
    customerId: customer._id,
    buyerEmail: input.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    country: customer.country,
    status: membership.status,
    active: true,
    cancelAtPeriodEnd: false,
    paused: false,
    membershipId: membership.id,
    planId: input.planId,
    paymentMethod: input.paymentMethod,
    clientReferenceId: input.clientReferenceId,
    metadata: input.metadata,
    currentPeriodStart: membership.currentPeriodStart,
    currentPeriodEnd: membership.currentPeriodEnd,
    trialEnd: membership.trialEnd,
    failureMessage: null,
    openInvoiceId: null,
    portalToken,
    portalUrl: portalUrlFor(input.baseUrl, offer._id, id, portalToken),
    testMode: scope.mode === 'test',
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
    canceledAt: null,
  };
  const ops = previous ? [subscriberReplace(scope, previous, subscriber), membershipPointer(scope, membership.id, id)] : subscriberPuts(scope, subscriber);
  return { subscriber, ops };
}

/** The first invoice of a subscription paid at checkout: created, paid, and its payment intent. */
export function initialInvoiceEvents(
  deps: Pick<Deps, 'clock'>,
  scope: Scope,
  subscriber: SubscriberRecord,
  offer: OfferRecord,
  sale: SaleRecord,
): DomainEvent[] {
  const invoice = {
    id: prefixedId('in'),
    amountCents: sale.amountCents,
    currency: sale.currency,
    paymentIntentId: sale.paymentIntentId,
    periodStart: subscriber.currentPeriodStart,
    periodEnd: subscriber.currentPeriodEnd,
  };
  const opts = { noSubscriberYet: true, billingReason: 'initial' as const, invoice };
  return [
    newEvent(scope, deps.clock, 'invoice.created', subscriptionEventData('invoice.created', subscriber, offer, opts)),
    newEvent(scope, deps.clock, 'invoice.payment_succeeded', subscriptionEventData('invoice.payment_succeeded', subscriber, offer, opts)),
    newEvent(scope, deps.clock, 'payment_intent.succeeded', subscriptionEventData('payment_intent.succeeded', subscriber, offer, { invoice })),
  ];
}

/** `customer.subscription.created`: after the order events, as a receiver sees them. */
export const subscriptionCreatedEvent = (deps: Pick<Deps, 'clock'>, scope: Scope, subscriber: SubscriberRecord, offer: OfferRecord): DomainEvent =>
  newEvent(scope, deps.clock, 'customer.subscription.created', subscriptionEventData('customer.subscription.created', subscriber, offer));
