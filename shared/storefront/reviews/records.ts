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
 * What a receipt token permits; the token reaches only the buyer (receipt email, thank-you page)
 * and is what lets them review. Kept by sales on the sale's locator (the token is the sale id and
 * a secret: sales/lookups.ts); releases before wrote it at keys.capability('receipt', token).
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
