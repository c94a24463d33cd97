import type { StripeContext } from './billing';
import { detachSavedCard } from './billing';
import { stripeCall } from './errors';
import { getRef } from './refs';

/**
 * Stripe's part of a buyer's erasure: the Stripe customers behind the cards the buyer's orders
 * used lose their address, name, phone, description and postal addresses, then each card is
 * detached (no later off-session charge). Payments, invoices and subscriptions stay in Stripe for
 * the books; the customer itself is not deleted, since deleting it would end a subscription still
 * running to its period's end. Customers first, cards after: a rerun after a crash finds the cards
 * still naming their customer. Idempotent.
 */
export async function eraseStripeBuyer(ctx: StripeContext, buyer: { email: string; paymentMethodIds: string[] }): Promise<void> {
  const cards = [];
  for (const id of new Set(buyer.paymentMethodIds)) {
    if (!/^payt_[0-9a-f]{24}$/.test(id)) continue;
    const card = await getRef(ctx.deps.store, ctx.scope, id);
    if (card?.kind === 'card') cards.push(card);
  }
  for (const customer of new Set(cards.map((card) => card.customerId).filter((id): id is string => Boolean(id)))) {
    await stripeCall(() =>
      ctx.client.customers.update(
        customer,
        { email: '', name: '', phone: '', description: '', address: '', shipping: '' },
        { idempotencyKey: `cc-erase-${customer}` },
      ),
    );
  }
  for (const card of cards) if (card.customerId) await detachSavedCard(ctx, card.specId);
}
