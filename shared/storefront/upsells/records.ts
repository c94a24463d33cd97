/** An upsell as stored. Money is integer cents. */
export const UPSELL = 'UPSELL';

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
