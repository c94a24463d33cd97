/** Reviews, the one-review-per-sale guard, and the receipt capability checkout writes. */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { putNew } from '../../store/conditional';
import { toRecord, type Store, type TransactOp } from '../../store/store';
import { RECEIPT_CAPABILITY_KIND, REVIEW, type ReceiptCapability, type ReviewRecord } from './records';

const REVIEW_SALE = 'REVIEW_SALE';
const REVIEWS_OF_PRODUCT = 'REVIEWS_OF_PRODUCT';

export const findReceipt = async (store: Store, token: string) => toRecord<ReceiptCapability>(await store.get(keys.capability(RECEIPT_CAPABILITY_KIND, token)));

export const reviewPutOps = (scope: Scope, review: ReviewRecord): TransactOp[] => [
  putNew(toItem(keys.entity(scope, REVIEW, review._id), 'Review', review, { indexes: [keys.indexed('GSI1', scope, REVIEWS_OF_PRODUCT, review.productId, review._id)] })),
  // One review per sale: the guard is what makes a second submission fail.
  putNew(toItem(keys.unique(scope, REVIEW_SALE, review.saleId), 'ReviewOfSale', { reviewId: review._id })),
];

export async function loadReviews(store: Store, scope: Scope, productId?: string): Promise<ReviewRecord[]> {
  const items = productId
    ? await store.queryAll(keys.indexPartition('GSI1', scope, REVIEWS_OF_PRODUCT, productId))
    : await store.queryAll({ pk: keys.collection(scope, REVIEW) });
  return items.map((i) => toRecord<ReviewRecord>(i)!);
}
