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
  /**
   * The buyer's link to their balance page (credits/consent.ts), where they turn auto top-ups off;
   * made when consent is first given, and in every credit mail.
   */
  consentToken?: string;
  /** Set while a top-off charge is under way (credits/service.ts autoRefill); a withdrawal waits for it. */
  refillClaimedAt?: string;
  createdAt: string;
  updatedAt: string;
}
