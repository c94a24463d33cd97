import * as z from 'zod';
import { hasCents, isoDateTime, productIds, testMode } from '../schemas';
import { DISCOUNT_CODE_PATTERN } from './discount-math';

// ---- discounts ----
export const discountCode = z.string().trim().regex(DISCOUNT_CODE_PATTERN, 'must be 3 to 32 letters, digits, - or _');
const discountFields = {
  name: z.string().trim().min(1).max(200),
  code: discountCode,
  valueType: z.enum(['percentage', 'fixed']),
  /** Percent off (percentage) or USD off (fixed). */
  value: z.number().positive().max(1_000_000).refine(hasCents, 'must have at most two decimals'),
  mainProductIds: productIds,
  expiresAt: isoDateTime.nullable(),
  maxUses: z.number().int().positive().nullable(),
};
export const createDiscountBody = z.object({
  ...discountFields,
  valueType: discountFields.valueType.default('percentage'),
  expiresAt: discountFields.expiresAt.optional(),
  maxUses: discountFields.maxUses.optional(),
});
export const updateDiscountBody = z.object(discountFields).partial();
export type CreateDiscountInput = z.output<typeof createDiscountBody>;
export type UpdateDiscountInput = z.output<typeof updateDiscountBody>;

export const discountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  valueType: z.enum(['percentage', 'fixed']),
  value: z.number(),
  mainProductIds: z.array(z.string()),
  expiresAt: z.string().nullable(),
  maxUses: z.number().nullable(),
  uses: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const applyDiscountParams = z.object({ discountCode: z.string().min(1).max(100), productId: z.string().min(1).max(100) });
export const appliedDiscountSchema = z.object({
  code: z.string(),
  productId: z.string(),
  originalPrice: z.number(),
  discountedPrice: z.number(),
  amountOff: z.number(),
  valueType: z.enum(['percentage', 'fixed']),
  value: z.number(),
  currency: z.string(),
});
export const productParams = z.object({ productId: z.string().min(1).max(100) });
