import * as z from '../../platform/zod';
import { ANY_ORIGIN } from '../../platform/cors';
import { defineOperation } from '../../platform/operation';
import { reviewQuery, reviewSchema, submitReviewBody, submitReviewParams, submittedReviewSchema } from './schemas';
import { listReviews, submitReview } from './service';

export const reviewOperations = [
  defineOperation({
    operationId: 'listReviews',
    tool: 'list_reviews',
    summary: "Buyers' reviews of the seller's products, newest first; optional productId filter",
    tags: ['Reviews'],
    method: 'GET',
    path: '/reviews',
    auth: 'key',
    query: reviewQuery,
    output: z.array(reviewSchema),
    handler: async (ctx, { query }) => listReviews(ctx, ctx.scope, query.productId),
  }),
  defineOperation({
    operationId: 'submitReview',
    summary: 'A buyer reviews a purchase (public; the receipt token is the permission)',
    description: 'One review per sale (409 ALREADY_REVIEWED); an unknown token answers 404. Emits review.created.',
    tags: ['Reviews'],
    method: 'POST',
    path: '/reviews/submit/{token}',
    auth: 'public',
    params: submitReviewParams,
    body: submitReviewBody,
    output: submittedReviewSchema,
    status: 201,
    // The seller's own site may post the review form from its pages.
    cors: ANY_ORIGIN,
    handler: async (ctx, { params, body }) => {
      const { buyerEmail: _email, customerId: _customer, ...review } = await submitReview(ctx, params.token, body);
      return review;
    },
  }),
];
