import type { BusConsumer } from '../workers/registry';
import { getSubscriber } from './repository';
import { scheduleSubscriberTimers } from './timers';

/** Every event that follows a change of a subscriber's state or billing period. */
export const SUBSCRIBER_CHANGE_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.pause',
  'customer.subscription.resumed',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
];

/**
 * Timers are derived from committed state, by a bus consumer rather than right after the write:
 * the event exists if and only if the change happened, and the bus retries a failed consumer, so
 * a crash after the commit can no longer lose a timer. The consumer reads the subscriber's current
 * state (not the event's), so repeats and reordering converge on the same timers.
 */
export const subscriptionTimersConsumer: BusConsumer = {
  name: 'subscription-timers',
  needs: ['table', 'scheduler'],
  eventTypes: SUBSCRIBER_CHANGE_EVENTS,
  handle: async (event, deps) => {
    const subscriberId = event.data.subscriptionCustomerId;
    if (typeof subscriberId !== 'string') return;
    const scope = { accountId: event.accountId, mode: event.mode };
    const subscriber = await getSubscriber(deps.store, scope, subscriberId, true);
    if (subscriber) await scheduleSubscriberTimers(deps, scope, subscriber);
  },
};
