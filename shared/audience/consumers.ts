import type { BusConsumer } from '../platform/capability';
import { CHECKOUT_CONSENT_EVENT, recordCheckoutConsent, recordSaleFacts, SALE_FACTS_CONSUMER } from './sale-facts';

/**
 * A committed sale creates or updates the buyer's contact and its purchase facts; the newsletter
 * consent a buyer gave at checkout rides on the order's event (`internal`) and is written with
 * them, in the same contact write. A checkout without a sale sends the consent as an internal
 * event of its own. One consumer for both: one function and bus rule.
 */
export const saleFactsConsumer: BusConsumer = {
  name: SALE_FACTS_CONSUMER,
  eventTypes: ['order.completed', CHECKOUT_CONSENT_EVENT],
  needs: ['table'],
  handle: (event, deps) => (event.type === CHECKOUT_CONSENT_EVENT ? recordCheckoutConsent(deps, event) : recordSaleFacts(deps, event)),
};
