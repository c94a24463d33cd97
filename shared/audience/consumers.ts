import type { BusConsumer } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { recordDispute, recordRefund } from './sale-adjustments';
import { CHECKOUT_CONSENT_EVENT, recordCheckoutConsent, recordSaleFacts, SALE_FACTS_CONSUMER } from './sale-facts';

/**
 * A committed sale creates or updates the buyer's contact and its purchase facts; the newsletter
 * consent a buyer gave at checkout rides on the order's event (`internal`) and is written with
 * them, in the same contact write. A checkout without a sale sends the consent as an internal
 * event of its own. A refund or a dispute takes its money off the buyer's total. One consumer for
 * all: one function and bus rule.
 */
const handlers: Record<string, (deps: Deps, event: DomainEvent) => Promise<void>> = {
  'order.completed': recordSaleFacts,
  'order.refunded': recordRefund,
  'order.disputed': recordDispute,
  [CHECKOUT_CONSENT_EVENT]: recordCheckoutConsent,
};

export const saleFactsConsumer: BusConsumer = {
  name: SALE_FACTS_CONSUMER,
  eventTypes: Object.keys(handlers),
  needs: ['table'],
  handle: (event, deps) => handlers[event.type]!(deps, event),
};
