import * as z from '../../platform/zod';
import { testMode } from '../schemas';

// ---- reviews ----
export const reviewQuery = z.object({ productId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))) });
export const submitReviewParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(200)) });
export const submitReviewBody = z.object({
  rating: z.number().check(z.int('must be a whole number'), z.minimum(1), z.maximum(5)),
  title: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  body: z.optional(z.string().check(z.trim(), z.maxLength(5000))),
});
export const reviewSchema = z.object({
  _id: z.string(),
  productId: z.string(),
  saleId: z.string(),
  customerId: z.nullable(z.string()),
  buyerEmail: z.string(),
  rating: z.number(),
  title: z.nullable(z.string()),
  body: z.nullable(z.string()),
  testMode,
  createdAt: z.string(),
});
export const submittedReviewSchema = z.omit(reviewSchema, { buyerEmail: true, customerId: true });
