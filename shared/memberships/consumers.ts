import type { BusConsumer } from '../platform/capability';
import { onOrderEvent, onSubscriptionEvent, resyncMembership, RESYNC_EVENT } from './service';

/** Subscription events whose subscriber state may have changed access. */
const SUBSCRIPTION_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.pause',
  'customer.subscription.resumed',
];

/**
 * Members derive from committed events. Each handler works on current state with set semantics,
 * so a redelivered event (or a duplicated processor notification) changes nothing and fires nothing.
 */
export const memberSubscriptionConsumer: BusConsumer = {
  name: 'memberships-subscribers',
  eventTypes: SUBSCRIPTION_EVENTS,
  handle: (event, deps) => onSubscriptionEvent(deps, event),
};

export const memberOrderConsumer: BusConsumer = {
  name: 'memberships-orders',
  eventTypes: ['order.completed', 'order.refunded'],
  handle: (event, deps) => onOrderEvent(deps, event),
};

export const membershipResyncConsumer: BusConsumer = {
  name: 'memberships-resync',
  eventTypes: [RESYNC_EVENT],
  handle: (event, deps) => resyncMembership(deps, event),
};
