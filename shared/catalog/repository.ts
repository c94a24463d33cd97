import type { Scope } from '../store/keys';
import { putNew } from '../store/conditional';
import type { Store, TransactOp } from '../store/store';
import { offerEntity, productEntity, productLocatorEntity } from './entities';
import { OFFER, PRODUCT, type OfferRecord, type ProductRecord } from './records';

// Products and offers each live in one partition per tenant and mode (`<scope>#PRODUCT`,
// `<scope>#OFFER`, declared in entities.ts) with the time-ordered id as sort key, so a descending
// query is newest first. DELETE marks a record `deletedAt` instead of removing it: what was sold stays resolvable (an
// order's product, a subscriber's offer keeps renewing), while it can no longer be sold, listed,
// read or changed through the catalog API.

const NOT_DELETED = { expression: 'attribute_not_exists(#deletedAt)', names: { '#deletedAt': 'deletedAt' } };

const active = <T extends { deletedAt?: string }>(record: T | undefined): T | undefined => (record && !record.deletedAt ? record : undefined);

/**
 * The stored product, deleted ones included (they carry `deletedAt`): for joins and for work on
 * what was already sold. To decide whether something can be sold, use getSellable.
 */
export async function getProduct(store: Store, scope: Scope, id: string): Promise<ProductRecord | undefined> {
  return productEntity.get(store, 'byId', scope, id);
}

/** The stored offer, deleted ones included (they carry `deletedAt`); see getProduct. */
export async function getOffer(store: Store, scope: Scope, id: string): Promise<OfferRecord | undefined> {
  return offerEntity.get(store, 'byId', scope, id);
}

/** A product that is not deleted. */
export async function getActiveProduct(store: Store, scope: Scope, id: string): Promise<ProductRecord | undefined> {
  return active(await getProduct(store, scope, id));
}

/** An offer that is not deleted. */
export async function getActiveOffer(store: Store, scope: Scope, id: string): Promise<OfferRecord | undefined> {
  return active(await getOffer(store, scope, id));
}

/** The checkout's `productId` takes either kind; deleted records are not for sale. */
export async function getSellable(
  store: Store,
  scope: Scope,
  id: string,
): Promise<{ kind: 'product'; product: ProductRecord } | { kind: 'offer'; offer: OfferRecord } | undefined> {
  const [product, offer] = await Promise.all([getActiveProduct(store, scope, id), getActiveOffer(store, scope, id)]);
  if (product) return { kind: 'product', product };
  if (offer) return { kind: 'offer', offer };
  return undefined;
}

/** Every product of the tenant and mode, newest first. */
export async function listProducts(store: Store, scope: Scope): Promise<ProductRecord[]> {
  return productEntity.queryAll(store, 'live', [scope], { filter: NOT_DELETED });
}

/** Every offer of the tenant and mode, newest first. */
export async function listOffers(store: Store, scope: Scope): Promise<OfferRecord[]> {
  return offerEntity.queryAll(store, 'live', [scope], { filter: NOT_DELETED });
}

/** Live products that name a refund policy (bounded: one seller's catalog). */
export async function listProductsWithRefundPolicy(store: Store, scope: Scope): Promise<ProductRecord[]> {
  return productEntity.queryAll(store, 'withRefundPolicy', [scope], {
    // Deleted products stay in the partition for history (deletedAt); they use no policy.
    filter: { expression: 'attribute_exists(#p) AND attribute_not_exists(#d)', names: { '#p': 'refundPolicyId', '#d': 'deletedAt' } },
  });
}

// ---- writes, handed to the service so it can put them in one transaction with the event ----

const entityOf = { [PRODUCT]: productEntity, [OFFER]: offerEntity } as const;
const itemOf = (scope: Scope, type: typeof PRODUCT | typeof OFFER, record: ProductRecord | OfferRecord) =>
  entityOf[type].item(entityOf[type].declaration.key(scope, record._id), record);

function createOp(scope: Scope, type: typeof PRODUCT | typeof OFFER, record: ProductRecord | OfferRecord): TransactOp {
  return putNew(itemOf(scope, type, record));
}

/**
 * Replaces a record only if nobody changed or deleted it since it was read (`updatedAt` is the
 * version): two concurrent updates cannot both win, and an update cannot revive a deleted record.
 */
function replaceOp(scope: Scope, type: typeof PRODUCT | typeof OFFER, record: ProductRecord | OfferRecord, readUpdatedAt: string): TransactOp {
  return {
    put: itemOf(scope, type, record),
    condition: 'attribute_exists(PK) AND #updatedAt = :readUpdatedAt AND attribute_not_exists(#deletedAt)',
    names: { '#updatedAt': 'updatedAt', '#deletedAt': 'deletedAt' },
    values: { ':readUpdatedAt': readUpdatedAt },
  };
}

/** The product's scope-free locator (public buy link); a product id is never reused. */
const locatorPut = (scope: Scope, productId: string): TransactOp => ({
  put: productLocatorEntity.item(productLocatorEntity.declaration.key(productId), { accountId: scope.accountId, mode: scope.mode }),
});

/** Account and mode of a product id, for the public buy link. */
export const locateProduct = (store: Store, productId: string) => productLocatorEntity.get(store, 'byProduct', productId);

export const productWrites = {
  create: (scope: Scope, record: ProductRecord) => [createOp(scope, PRODUCT, record), locatorPut(scope, record._id)],
  replace: (scope: Scope, record: ProductRecord, readUpdatedAt: string) => replaceOp(scope, PRODUCT, record, readUpdatedAt),
};

export const offerWrites = {
  create: (scope: Scope, record: OfferRecord) => createOp(scope, OFFER, record),
  replace: (scope: Scope, record: OfferRecord, readUpdatedAt: string) => replaceOp(scope, OFFER, record, readUpdatedAt),
};
