import * as z from 'zod';
import { discountCode } from '../discounts/schemas';
import { hasCents, testMode } from '../schemas';

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
