/** Reviews, the one-review-per-sale guard, and the receipt capability checkout writes; keys come from entities.ts. */
import { putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store, TransactOp } from '../../store/store';
import { receiptEntity, reviewEntity, reviewOfSaleEntity } from './entities';
import type { ReviewRecord } from './records';

export const findReceipt = (store: Store, token: string) => receiptEntity.get(store, 'byToken', token);

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
