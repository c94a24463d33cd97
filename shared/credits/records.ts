/**
 * Credit balances as stored: one account per buyer (email) and credits product, in integer cents.
 * Other capabilities reach them through service.ts.
 */
export const CREDIT_ACCOUNT = 'CREDIT_ACCOUNT';

export interface CreditAccountRecord {
  _id: string;
  productId: string;
  customerId: string;
  buyerEmail: string;
  balanceCents: number;
  currency: string;
  /** `paused` after a failed top-off charge, until the buyer buys more credits. */
  status: 'active' | 'paused';
  autoRefill: { consent: boolean; paymentMethodId: string | null };
  createdAt: string;
  updatedAt: string;
}
