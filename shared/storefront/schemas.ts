import * as z from 'zod';
import { DISCOUNT_CODE_PATTERN } from './discount-math';

/** Path ids are looked up, never pattern-checked: a malformed id answers 404 like a missing one. */
export const idParams = z.object({ id: z.string().min(1).max(100) });

const hasCents = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
/** An amount in USD major units (29.99), at most two decimals. */
export const usdAmount = z.number().min(0).max(1_000_000).refine(hasCents, 'must have at most two decimals');
const recordId = z.string().trim().min(1).max(100);
const productIds = z.array(recordId).min(1, 'must name at least one product').max(100);
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
    } catch {
      return false;
    }
  }, 'must be an absolute http(s) URL');
const isoDateTime = z.iso.datetime({ offset: true });
const testMode = z.boolean();

// ---- discounts ----
const discountCode = z.string().trim().regex(DISCOUNT_CODE_PATTERN, 'must be 3 to 32 letters, digits, - or _');
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

// ---- upsells ----
const upsellFields = {
  name: z.string().trim().min(1).max(200).nullable(),
  mainProductIds: productIds,
  upsellProductId: recordId,
  upsellPrice: usdAmount,
};
export const createUpsellBody = z.object({ ...upsellFields, name: upsellFields.name.optional() });
export const updateUpsellBody = z.object(upsellFields).partial();
export type UpsellInput = z.output<typeof updateUpsellBody>;
export const upsellSchema = z.object({
  _id: z.string(),
  name: z.string().nullable(),
  mainProductIds: z.array(z.string()),
  upsellProductId: z.string(),
  upsellPrice: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});

// ---- images ----
/** Documents the multipart file field; the file itself arrives in `files`, not in the fields. */
export const uploadImageBody = z.object({
  image: z.unknown().optional().meta({ type: 'string', format: 'binary', description: 'The image file: PNG, JPEG, GIF or WebP, at most 5 MB' }),
});
export const imageSchema = z.object({
  _id: z.string(),
  url: z.string(),
  contentType: z.string(),
  size: z.number(),
  filename: z.string(),
  createdAt: z.string(),
});
export const imageFileParams = z.object({ token: z.string().min(1).max(100) });

// ---- creator page ----
export const updateCreatorPageBody = z
  .object({
    title: z.string().trim().max(120),
    bio: z.string().trim().max(2000),
    avatarUrl: httpUrl.nullable(),
  })
  .partial();
export const linkBody = z.object({ title: z.string().trim().min(1).max(120), url: httpUrl });
export const updateLinkBody = linkBody.partial();
export const creatorLinkSchema = z.object({ _id: z.string(), title: z.string(), url: z.string(), createdAt: z.string(), updatedAt: z.string() });
export const creatorPageSchema = z.object({
  _id: z.string(),
  title: z.string(),
  bio: z.string(),
  avatarUrl: z.string().nullable(),
  links: z.array(creatorLinkSchema),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});

// ---- partners ----
export const createPartnerBody = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320),
  referralCode: discountCode.optional(),
  commissionPercent: z.number().min(0).max(100).refine(hasCents, 'must have at most two decimals'),
});
export const partnerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  referralCode: z.string(),
  commissionPercent: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const registerReferralBody = z.object({ referralCode: z.string().trim().min(1).max(100), email: z.email().max(320).optional() });
export const referralSchema = z.object({ _id: z.string(), partnerId: z.string(), referralCode: z.string(), email: z.string().nullable(), createdAt: z.string() });
export const partnerFilterQuery = z.object({ partnerId: z.string().min(1).max(100).optional() });
export const referralSaleSchema = z.object({
  _id: z.string(),
  saleId: z.string(),
  partnerId: z.string(),
  referralCode: z.string(),
  amount: z.number(),
  currency: z.string(),
  commissionPercent: z.number(),
  commission: z.number(),
  buyerEmail: z.string(),
  productId: z.string(),
  createdAt: z.string(),
});
const statsFields = { referrals: z.number(), sales: z.number(), revenue: z.number(), commission: z.number() };
export const partnerStatsSchema = z.object({
  currency: z.string(),
  totals: z.object(statsFields),
  partners: z.array(z.object({ partnerId: z.string(), name: z.string(), referralCode: z.string(), commissionPercent: z.number(), ...statsFields })),
});

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

// ---- refund policies ----
export const createRefundPolicyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    days: z.number().int('must be a whole number').min(0).max(3650),
    description: z.string().trim().max(5000).optional(),
    text: z.string().trim().max(5000).optional(),
  })
  .refine((b) => !(b.description !== undefined && b.text !== undefined && b.description !== b.text), {
    message: 'give description or text, not two different values',
    path: ['text'],
  });
export const refundPolicySchema = z.object({
  _id: z.string(),
  name: z.string(),
  days: z.number(),
  description: z.string(),
  text: z.string(),
  appliedTo: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
