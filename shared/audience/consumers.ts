import type { BusConsumer } from '../platform/capability';
import { recordSaleFacts, SALE_FACTS_CONSUMER } from './service';

/** A committed sale creates or updates the buyer's contact and its purchase facts. */
export const saleFactsConsumer: BusConsumer = {
  name: SALE_FACTS_CONSUMER,
  eventTypes: ['order.completed'],
  needs: ['table'],
  handle: (event, deps) => recordSaleFacts(deps, event),
};
