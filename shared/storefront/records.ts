/**
 * Storefront records as stored. Money is integer cents; the API shows USD major units.
 * Other capabilities read these shapes (checkout: discounts, partners; catalog: refund policies).
 */
import type { Mode } from '../store/keys';

export const DISCOUNT = 'DISCOUNT';
export const UPSELL = 'UPSELL';
export const IMAGE = 'IMAGE';
export const CREATOR_PAGE = 'CREATOR_PAGE';
export const PARTNER = 'PARTNER';
export const REVIEW = 'REVIEW';
export const REFUND_POLICY = 'REFUND_POLICY';

export interface DiscountRecord {
  _id: string;
  name: string;
  /** As the seller typed it; matching uses the upper-cased form. */
  code: string;
  valueType: 'percentage' | 'fixed';
  percentOff?: number;
  amountOffCents?: number;
  mainProductIds: string[];
  /** Shown as `expiresAt`; stored under another name because `expiresAt` is the table's TTL attribute. */
  validUntil?: string;
  maxUses?: number;
  /** Completed sales that used the code; incremented by checkout through redeemDiscountOps. */
  uses: number;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface UpsellRecord {
  _id: string;
  name: string | null;
  mainProductIds: string[];
  upsellProductId: string;
  upsellPriceCents: number;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ImageRecord {
  _id: string;
  /** Unguessable part of the public file address. */
  fileToken: string;
  blobKey: string;
  contentType: string;
  size: number;
  filename: string;
  testMode: boolean;
  createdAt: string;
}

/** What the public file route finds by token: enough to serve the bytes, nothing else. */
export interface ImageFileCapability {
  accountId: string;
  mode: Mode;
  imageId: string;
  blobKey: string;
  contentType: string;
}

export interface CreatorPageRecord {
  _id: string;
  title: string;
  bio: string;
  avatarUrl: string | null;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CreatorLinkRecord {
  _id: string;
  title: string;
  url: string;
  createdAt: string;
  updatedAt: string;
}

export interface PartnerRecord {
  _id: string;
  name: string;
  email: string;
  referralCode: string;
  commissionPercent: number;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ReferralRecord {
  _id: string;
  partnerId: string;
  referralCode: string;
  email: string | null;
  createdAt: string;
}

export interface ReferralSaleRecord {
  /** The sale id: one referral-sale record per sale. */
  _id: string;
  saleId: string;
  partnerId: string;
  referralCode: string;
  amountCents: number;
  currency: string;
  commissionPercent: number;
  commissionCents: number;
  buyerEmail: string;
  productId: string;
  createdAt: string;
}

export interface ReviewRecord {
  _id: string;
  productId: string;
  saleId: string;
  customerId: string | null;
  buyerEmail: string;
  rating: number;
  title: string | null;
  body: string | null;
  testMode: boolean;
  createdAt: string;
}

/**
 * Written by checkout for every completed sale at keys.capability('receipt', token); the token
 * reaches only the buyer (receipt email, thank-you page) and is what lets them review.
 */
export interface ReceiptCapability {
  accountId: string;
  mode: Mode;
  saleId: string;
  productId: string;
  buyerEmail: string;
  customerId: string | null;
}
export const RECEIPT_CAPABILITY_KIND = 'receipt';
export const RECEIPT_CAPABILITY_ENTITY = 'ReceiptCapability';

export interface RefundPolicyRecord {
  _id: string;
  name: string;
  days: number;
  description: string;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}
