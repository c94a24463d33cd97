import type { Store } from '../../store/store';
import type { Scope } from '../../store/keys';
import { cardItem, getCard } from './repository';

/**
 * The sandbox's part of a buyer's erasure: what it keeps about a buyer is their cards (the address
 * they paid with, for saved-card charges). Each card the buyer's orders used loses the address and
 * is no longer saved; brand and last four stay on the payments. Idempotent.
 */
export async function eraseSandboxBuyer(store: Store, scope: Scope, buyer: { email: string; paymentMethodIds: string[] }): Promise<void> {
  for (const id of new Set(buyer.paymentMethodIds)) {
    const card = await getCard(store, scope, id);
    if (!card || (card.email === '' && !card.saved)) continue;
    await store.put(cardItem(scope, { ...card, email: '', saved: false }));
  }
}
