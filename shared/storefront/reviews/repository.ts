/** Reviews, the one-review-per-sale guard, and the receipt capability checkout writes; keys come from entities.ts. */
import { putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store, TransactOp } from '../../store/store';
import { receiptEntity, reviewEntity, reviewOfSaleEntity } from './entities';
import type { ReceiptCapability, ReviewRecord } from './records';
import { receiptOfSaleToken } from '../../sales/lookups';

/**
 * The receipt a token stands for: a token of this release names its sale, whose locator (sales)
 * keeps the receipt; one of a release before has its own item here.
 */
export const findReceipt = async (store: Store, token: string): Promise<ReceiptCapability | undefined> =>
  (await receiptOfSaleToken({ store }, token)) ?? receiptEntity.get(store, 'byToken', token);

export const reviewPutOps = (scope: Scope, review: ReviewRecord): TransactOp[] => [
  putNew(
    reviewEntity.item(reviewEntity.declaration.key(scope, review._id), review, {
      indexes: [reviewEntity.declaration.indexes!.ofProduct!.key(scope, review.productId, review._id)],
    }),
  ),
  // One review per sale: the guard is what makes a second submission fail.
  putNew(reviewOfSaleEntity.item(reviewOfSaleEntity.declaration.key(scope, review.saleId), { reviewId: review._id })),
];

export const loadReviews = (store: Store, scope: Scope, productId?: string): Promise<ReviewRecord[]> =>
  productId ? reviewEntity.queryAll(store, 'ofProduct', [scope, productId]) : reviewEntity.queryAll(store, 'ofTenant', [scope]);

/** The reviews of some sales (an export or an erasure of their buyer): through each sale's one-review guard. */
export async function reviewsOfSales(store: Store, scope: Scope, saleIds: string[]): Promise<ReviewRecord[]> {
  const guards = await reviewOfSaleEntity.getMany(
    store,
    'bySale',
    saleIds.map((id) => [scope, id] as [Scope, string]),
  );
  if (!guards.length) return [];
  return reviewEntity.getMany(
    store,
    'byId',
    guards.map((g) => [scope, g.reviewId] as [Scope, string]),
  );
}

/** The reviewer's address goes; rating, title and text stay on the product (they name nobody by it). */
export const reviewEmailErasure = (store: Store, scope: Scope, reviewId: string) =>
  store.update(reviewEntity.declaration.key(scope, reviewId), { set: { buyerEmail: '' } }, { mustExist: true });
