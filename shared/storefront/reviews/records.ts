import type { Mode } from '../../store/keys';

/** Reviews as stored, and the receipt capability checkout writes that permits one. */
export const REVIEW = 'REVIEW';

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
