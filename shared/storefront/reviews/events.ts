import type { ReviewRecord } from './records';

/** `review.created` data: the review as stored. */
export const reviewEventData = (review: ReviewRecord): Record<string, unknown> => ({ ...review });
