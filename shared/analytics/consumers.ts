import type { BusConsumer } from '../platform/capability';
import { applyEvent } from './service';

/** Sales, refunds and subscriber changes into the rollups; idempotent on event.id (marker or state). */
export const rollupsConsumer: BusConsumer = {
  name: 'analytics-rollups',
  eventTypes: [
    'order.completed',
    'order.refunded',
    'customer.subscription.created',
    'customer.subscription.updated',
    'customer.subscription.deleted',
    'customer.subscription.pause',
    'customer.subscription.resumed',
    'subscription.recovered',
    'subscription.saved',
  ],
  needs: ['table'],
  handle: (event, deps) => applyEvent(deps, event),
};
