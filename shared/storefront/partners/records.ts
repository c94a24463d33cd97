/** Partners (affiliates), their referrals and referral sales, as stored. Money is integer cents. */
export const PARTNER = 'PARTNER';

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
