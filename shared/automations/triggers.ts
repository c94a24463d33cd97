import * as z from '../platform/zod';
import type { BusConsumer } from '../platform/capability';
import { allAutomations } from './repository';
import { enroll } from './service';

/** The fields of `order.completed` the trigger reads. */
const orderCompleted = z.looseObject({
  product: z.looseObject({ id: z.string() }),
  customer: z.looseObject({ email: z.string() }),
});

/**
 * `order_completed` triggers: the buyer enters every active automation of the tenant triggered by
 * a purchase of that product (or of any), unless its trigger is restricted to a segment the buyer
 * is not in (enroll checks it). Entering twice does nothing (one run per email), so a redelivered
 * event enrols no one again.
 */
export const automationOrderTrigger: BusConsumer = {
  name: 'automation-order-trigger',
  needs: ['table', 'scheduler'],
  eventTypes: ['order.completed'],
  handle: async (event, deps) => {
    const parsed = orderCompleted.safeParse(event.data);
    if (!parsed.success) return; // not a purchase with a buyer (nothing to trigger)
    const scope = { accountId: event.accountId, mode: event.mode };
    const email = parsed.data.customer.email.trim().toLowerCase();
    const triggered = (await allAutomations(deps.store, scope)).filter(
      (a) => a.status === 'active' && a.trigger.type === 'order_completed' && (!a.trigger.productId || a.trigger.productId === parsed.data.product.id),
    );
    for (const automation of triggered) await enroll(deps, scope, automation._id, email);
  },
};
