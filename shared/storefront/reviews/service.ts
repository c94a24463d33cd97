import type { Deps } from '../../platform/context';
import { ApiError, notFound } from '../../platform/errors';
import { objectId } from '../../platform/ids';
import { newEvent, outboxPut } from '../../platform/events';
import { scopeOf, type Scope } from '../../store/keys';
import { failOnCondition } from '../../store/conditional';
import { reviewEventData } from './events';
import type { ReviewRecord } from './records';
import { findReceipt, loadReviews, reviewPutOps } from './repository';

export const listReviews = (deps: Deps, scope: Scope, productId?: string) => loadReviews(deps.store, scope, productId);

/**
 * A buyer's review, authorised by the receipt token checkout gave them. The token alone decides
 * the seller, the mode and the sale; one review per sale. The review and its `review.created`
 * event are one transaction.
 */
export async function submitReview(deps: Deps, token: string, input: { rating: number; title?: string; body?: string }): Promise<ReviewRecord> {
  const receipt = await findReceipt(deps.store, token);
  if (!receipt) throw notFound('Receipt');
  const scope = scopeOf(receipt.accountId, receipt.mode);
  const review: ReviewRecord = {
    _id: objectId(deps.clock),
    productId: receipt.productId,
    saleId: receipt.saleId,
    customerId: receipt.customerId ?? null,
    buyerEmail: receipt.buyerEmail,
    rating: input.rating,
    title: input.title || null,
    body: input.body || null,
    testMode: scope.mode === 'test',
    createdAt: deps.clock.now().toISOString(),
  };
  await failOnCondition(
    deps.store.transact([...reviewPutOps(scope, review), outboxPut(newEvent(scope, deps.clock, 'review.created', reviewEventData(review)))]),
    () => new ApiError(409, 'This purchase has already been reviewed', { code: 'ALREADY_REVIEWED' }),
  );
  return review;
}

/** The receipt a buyer's token stands for (accountId, mode, saleId), for features the token unlocks (the attribution survey). */
export const receiptOfToken = (deps: Pick<Deps, 'store'>, token: string) => findReceipt(deps.store, token);
