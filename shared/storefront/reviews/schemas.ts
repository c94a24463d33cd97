import * as z from 'zod';
import { testMode } from '../schemas';

// ---- reviews ----
export const reviewQuery = z.object({ productId: z.string().min(1).max(100).optional() });
export const submitReviewParams = z.object({ token: z.string().min(1).max(200) });
export const submitReviewBody = z.object({
  rating: z.number().int('must be a whole number').min(1).max(5),
  title: z.string().trim().max(200).optional(),
  body: z.string().trim().max(5000).optional(),
});
export const reviewSchema = z.object({
  _id: z.string(),
  productId: z.string(),
  saleId: z.string(),
  customerId: z.string().nullable(),
  buyerEmail: z.string(),
  rating: z.number(),
  title: z.string().nullable(),
  body: z.string().nullable(),
  testMode,
  createdAt: z.string(),
});
export const submittedReviewSchema = reviewSchema.omit({ buyerEmail: true, customerId: true });
