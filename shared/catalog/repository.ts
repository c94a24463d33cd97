import { keys, type Scope } from '../store/keys';
import { toRecord, type Store } from '../store/store';
import { OFFER, PRODUCT, type OfferRecord, type ProductRecord } from './records';

export async function getProduct(store: Store, scope: Scope, id: string): Promise<ProductRecord | undefined> {
  return toRecord<ProductRecord>(await store.get(keys.entity(scope, PRODUCT, id)));
}

export async function getOffer(store: Store, scope: Scope, id: string): Promise<OfferRecord | undefined> {
  return toRecord<OfferRecord>(await store.get(keys.entity(scope, OFFER, id)));
}

/** The checkout's `productId` takes either kind. */
export async function getSellable(
  store: Store,
  scope: Scope,
  id: string,
): Promise<{ kind: 'product'; product: ProductRecord } | { kind: 'offer'; offer: OfferRecord } | undefined> {
  const [product, offer] = await Promise.all([getProduct(store, scope, id), getOffer(store, scope, id)]);
  if (product) return { kind: 'product', product };
  if (offer) return { kind: 'offer', offer };
  return undefined;
}
