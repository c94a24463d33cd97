/** A discount code as stored. Money is integer cents; the API shows USD major units. */
export const DISCOUNT = 'DISCOUNT';

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
