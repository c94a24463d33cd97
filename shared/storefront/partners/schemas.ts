import * as z from '../../platform/zod';
import { discountCode } from '../discounts/schemas';
import { hasCents, testMode } from '../schemas';

// ---- partners ----
export const createPartnerBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  email: z.email().check(z.maxLength(320)),
  referralCode: z.optional(discountCode),
  commissionPercent: z.number().check(z.minimum(0), z.maximum(100), z.refine(hasCents, 'must have at most two decimals')),
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
export const registerReferralBody = z.object({
  referralCode: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  email: z.optional(z.email().check(z.maxLength(320))),
});
export const referralSchema = z.object({
  _id: z.string(),
  partnerId: z.string(),
  referralCode: z.string(),
  email: z.nullable(z.string()),
  createdAt: z.string(),
});
export const partnerFilterQuery = z.object({ partnerId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))) });
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
