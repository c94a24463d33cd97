import type { PaymentMethod } from '../processor/port';

export const SALE = 'SALE';
export const CUSTOMER = 'CUSTOMER';

export type SaleStatus = 'completed' | 'refunded' | 'disputed';

/** Every charge is a sale: a one-time order or a subscription payment. Money in integer cents. */
export interface SaleRecord {
  _id: string;
  type: 'one_time' | 'subscription';
  billingReason?: 'initial' | 'renewal' | 'usage';
  /** Empty for subscription sales: they reference the offer in `subscriptionId`. */
  productId: string;
  productName: string;
  subscriptionId: string | null;
  subscriberId: string | null;
  customerId: string;
  buyerEmail: string;
  firstName: string | null;
  lastName: string | null;
  country: string | null;
  amountCents: number;
  originalAmountCents: number;
  currency: string;
  discountCode: string | null;
  /**
   * The lines of a sale of more than one thing (a checkout with its upsell taken): the product
   * (after any code) and the upsell product at its upsell price; they sum to amountCents.
   */
  lines?: SaleLine[];
  status: SaleStatus;
  refundedCents: number;
  paymentIntentId: string | null;
  planId: string | null;
  membershipId: string | null;
  paymentMethod: PaymentMethod | null;
  checkoutSessionId: string | null;
  /** The buyer's receipt capability: whoever holds it may review the purchase once. */
  receiptToken?: string;
  clientReferenceId: string | null;
  metadata: Record<string, unknown>;
  free: boolean;
  testMode: boolean;
  createdAt: string;
  refundedAt?: string;
  disputedAt?: string;
  /** Tax the processor computed on top of amountCents (Stripe Tax; the sandbox's simulated rate), and the buyer's VAT number. */
  taxCents?: number;
  taxRatePercent?: number;
  vatNumber?: string | null;
  /** The buyer's answer to the attribution survey (survey capability), once answered. */
  attribution?: SaleAttribution;
}

/** Where the buyer says they heard of the seller: the survey option, or their own words (`other`). */
export interface SaleAttribution {
  optionId: string;
  label: string;
  channel: string | null;
  answeredAt: string;
}

export interface SaleLine {
  productId: string;
  productName: string;
  amountCents: number;
  /** Set on the line an upsell added. */
  upsellId?: string;
}

export interface CustomerRecord {
  _id: string;
  /** The seller account the customer belongs to. */
  userId: string;
  buyerEmail: string;
  firstName: string | null;
  lastName: string | null;
  country: string | null;
  /** The product or offer of the first purchase. */
  productId: string | null;
  productIds: string[];
  testMode: boolean;
  numberOfOrders: number;
  /** The language the buyer chose at their last checkout: receipts and other buyer mails speak it. */
  locale?: string | null;
  createdAt: string;
  updatedAt: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
