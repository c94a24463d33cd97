import type { BusConsumer } from '../platform/capability';
import { REFUNDS_CONSUMER, SALES_CONSUMER } from './records';
import { attributeSale, unattributeSale } from './service';

/** A paid order whose checkout carried `metadata.trackedLink` counts for the link's channel. */
export const linkSalesConsumer: BusConsumer = {
  name: SALES_CONSUMER,
  eventTypes: ['order.completed'],
  needs: ['table'],
  handle: (event, deps) => attributeSale(deps, event),
};

/** A refund takes the sale back out of its channel. */
export const linkRefundsConsumer: BusConsumer = {
  name: REFUNDS_CONSUMER,
  eventTypes: ['order.refunded'],
  needs: ['table'],
  handle: (event, deps) => unattributeSale(deps, event),
};
