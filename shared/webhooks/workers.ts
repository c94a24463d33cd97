import { DELIVERABLE_EVENT_TYPES } from '../events/catalog';
import type { BusConsumer, QueueHandler } from '../platform/capability';
import { fanOutEvent, processDeliveryMessage } from './delivery';

/** Bus rule: every deliverable event type (never the reserved identity types). */
export const webhookFanoutConsumer: BusConsumer = {
  name: 'webhook-fanout',
  needs: ['table', 'queue'],
  eventTypes: [...DELIVERABLE_EVENT_TYPES],
  handle: async (event, deps) => {
    await fanOutEvent(deps, event);
  },
};

export const webhookQueueHandler: QueueHandler = (message, deps) => processDeliveryMessage(deps, message);
