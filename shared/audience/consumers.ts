import type { BusConsumer } from '../platform/capability';
import { CHECKOUT_CONSENT_EVENT, recordCheckoutConsent, recordSaleFacts, SALE_FACTS_CONSUMER } from './sale-facts';

/**
 * A committed sale creates or updates the buyer's contact and its purchase facts; the newsletter
 * consent a buyer gave at checkout (an internal event of the same completion) is recorded on it.
 * One consumer for both: one function and bus rule.
 */
export const saleFactsConsumer: BusConsumer = {
  name: SALE_FACTS_CONSUMER,
  eventTypes: ['order.completed', CHECKOUT_CONSENT_EVENT],
  needs: ['table'],
  handle: (event, deps) => (event.type === CHECKOUT_CONSENT_EVENT ? recordCheckoutConsent(deps, event) : recordSaleFacts(deps, event)),
};
