import * as z from '../../platform/zod';
import { hasCents, isoDateTime, productIds, testMode } from '../schemas';
import { DISCOUNT_CODE_PATTERN } from './discount-math';

// ---- discounts ----
export const discountCode = z.string().check(z.trim(), z.regex(DISCOUNT_CODE_PATTERN, 'must be 3 to 32 letters, digits, - or _'));
const discountFields = {
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  code: discountCode,
  valueType: z.enum(['percentage', 'fixed']),
  /** Percent off (percentage) or USD off (fixed). */
  value: z.number().check(z.positive(), z.maximum(1_000_000), z.refine(hasCents, 'must have at most two decimals')),
  mainProductIds: productIds,
  expiresAt: z.nullable(isoDateTime),
  maxUses: z.nullable(z.number().check(z.int(), z.positive())),
};
export const createDiscountBody = z.object({
  ...discountFields,
  valueType: z._default(discountFields.valueType, 'percentage'),
  expiresAt: z.optional(discountFields.expiresAt),
  maxUses: z.optional(discountFields.maxUses),
});
export const updateDiscountBody = z.partial(z.object(discountFields));
export type CreateDiscountInput = z.output<typeof createDiscountBody>;
export type UpdateDiscountInput = z.output<typeof updateDiscountBody>;

export const discountSchema = z.object({
  _id: z.string(),
  name: z.string(),
  code: z.string(),
  valueType: z.enum(['percentage', 'fixed']),
  value: z.number(),
  mainProductIds: z.array(z.string()),
  expiresAt: z.nullable(z.string()),
  maxUses: z.nullable(z.number()),
  uses: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const applyDiscountParams = z.object({
  discountCode: z.string().check(z.minLength(1), z.maxLength(100)),
  productId: z.string().check(z.minLength(1), z.maxLength(100)),
});
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
export const productParams = z.object({ productId: z.string().check(z.minLength(1), z.maxLength(100)) });
