import type { Frequency } from '../catalog/records';
import type { Scope } from '../store/keys';

/**
 * The payment processor as the rest of the service sees it. The sandbox (sandbox.ts) implements
 * it for test mode everywhere and for the local runtime; a live adapter would implement the same
 * port. Results of checkouts, renewals, refunds and disputes arrive later as signed notifications
 * on the processor ingress route; calls made by the seller's API (pause, resume, cancel) answer
 * synchronously and may be refused.
 */
export interface Buyer {
  email: string;
  firstName?: string;
  lastName?: string;
  country?: string;
}

/** A saved or used card: `id` (payt_) is stable per card number and buyer. */
export interface PaymentMethod {
  id: string;
  type: 'card';
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface CreateCheckoutInput {
  sessionId: string;
  kind: 'one_time' | 'subscription';
  description: string;
  amountCents: number;
  currency: string;
  interval?: Frequency;
  trialDays?: number;
  /** Offer the buyer to save the card for later charges (credits auto-refill). */
  offerSaveCard?: boolean;
  successUrl: string;
  cancelUrl: string;
  /** Where notifications about this checkout and what it starts are posted. */
  notifyUrl: string;
  /** Base address the hosted page is served from. */
  baseUrl: string;
}

export interface PayInput {
  buyer: Buyer;
  cardNumber?: string;
  saveCard?: boolean;
}

export interface PayResult {
  status: 'paid' | 'declined' | 'already_paid';
  paymentId?: string;
  membershipId?: string;
  redirectUrl?: string;
  failureMessage?: string;
}

export interface LiveMembership {
  id: string;
  status: 'trialing' | 'active' | 'past_due' | 'canceled';
  paused: boolean;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEnd: string | null;
  amountCents: number;
  currency: string;
  interval: Frequency;
  retries: number;
  paymentMethod: PaymentMethod;
}

export interface LivePayment {
  id: string;
  status: 'succeeded' | 'refunded' | 'partially_refunded' | 'disputed';
  amountCents: number;
  refundedCents: number;
  currency: string;
  membershipId: string | null;
  paymentMethod: PaymentMethod | null;
  createdAt: string;
}

export type RefusableOperation = 'pause' | 'resume' | 'cancel' | 'charge';

/** The processor said no (declined, refused, unreachable): callers decide how to degrade. */
export class ProcessorError extends Error {
  constructor(
    message: string,
    readonly code: 'refused' | 'not_found' | 'declined' | 'invalid' = 'refused',
  ) {
    super(message);
    this.name = 'ProcessorError';
  }
}

export interface ProcessorPort {
  createCheckout(scope: Scope, input: CreateCheckoutInput): Promise<{ checkoutId: string; url: string; planId: string }>;
  /** Pays a hosted checkout (the hosted page's form, or the local control API). */
  payCheckout(checkoutId: string, input: PayInput): Promise<PayResult>;
  /** Completes a checkout that costs nothing, without a card. */
  completeFreeCheckout(checkoutId: string, buyer: Buyer): Promise<PayResult>;
  /** Charges a saved card now; the answer is synchronous (credits auto-refill). */
  chargeSavedCard(scope: Scope, input: { paymentMethodId: string; amountCents: number; currency: string; description: string }): Promise<{ paymentId: string; paymentMethod: PaymentMethod }>;
  pauseMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  resumeMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }): Promise<LiveMembership>;
  refund(scope: Scope, paymentId: string, amountCents?: number): Promise<void>;
  dispute(scope: Scope, paymentId: string): Promise<void>;
  getMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  getPayment(scope: Scope, paymentId: string): Promise<LivePayment>;
  /** Sandbox only: renew a membership now with the given outcome. */
  renewNow?(scope: Scope, membershipId: string, outcome: 'succeed' | 'fail'): Promise<void>;
  /** Sandbox only: the next call of this kind fails. */
  refuseNext?(operation: RefusableOperation): void;
}

declare module '../platform/ports' {
  interface Ports {
    processor: ProcessorPort;
  }
}
