import type { BusConsumer } from '../platform/capability';
import { withSubscriberLease } from './lease';
import { onConditionFailed } from '../store/conditional';
import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import { getSubscriber, subscriberReplace } from './repository';
import type { SubscriberRecord } from './records';
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

/** The processor call that carries out a recorded portal intent. */
function syncCall(deps: Deps, scope: Scope, sub: SubscriberRecord & { membershipId: string }) {
  const processor = deps.ports.processor;
  switch (sub.processorSync!.action) {
    case 'cancel_at_period_end':
      return processor.cancelMembership(scope, sub.membershipId, { atPeriodEnd: true });
    case 'cancel_now':
      return processor.cancelMembership(scope, sub.membershipId, { atPeriodEnd: false });
    case 'resume':
      return processor.resumeMembership(scope, sub.membershipId);
  }
}

/**
 * Carries a buyer's portal change to the processor when the portal's own call failed. The change
 * and its intent were recorded together, so this runs from their event; a refusal throws, and the
 * bus retries with back-off (then the rule's dead-letter queue and its alarm). Once the processor
 * accepts, the intent is cleared, unless a newer change replaced the record meanwhile.
 */
export const subscriptionProcessorSyncConsumer: BusConsumer = {
  name: 'subscription-processor-sync',
  needs: ['table', 'encryption'],
  eventTypes: ['customer.subscription.updated', 'customer.subscription.deleted', 'customer.subscription.resumed'],
  handle: async (event, deps) => {
    const subscriberId = event.data.subscriptionCustomerId;
    if (typeof subscriberId !== 'string') return;
    const scope = { accountId: event.accountId, mode: event.mode };
    // Under the subscriber's lease, like the seller's and buyer's changes: the intent read here is
    // the latest, and no other change reaches the processor between this call and the clearing.
    await withSubscriberLease(deps, scope, subscriberId, async () => {
      const sub = await getSubscriber(deps.store, scope, subscriberId, true);
      if (!sub?.processorSync || !sub.membershipId) return;
      await syncCall(deps, scope, sub as SubscriberRecord & { membershipId: string });
      // A change meanwhile wrote the record again; the sync flag is that change's to settle.
      await onConditionFailed(deps.store.transact([subscriberReplace(scope, sub, { ...sub, processorSync: null })]), () => undefined);
    });
  },
};
