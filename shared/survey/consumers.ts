import type { BusConsumer } from '../platform/capability';
import { REFUND_CONSUMER } from './records';
import { onOrderRefunded } from './service';

/** A refund takes the order out of the report's counters, once per event. */
export const surveyRefundsConsumer: BusConsumer = {
  name: REFUND_CONSUMER,
  eventTypes: ['order.refunded'],
  needs: ['table'],
  handle: (event, deps) => onOrderRefunded(deps, event),
};
