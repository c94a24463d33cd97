import { createHash } from 'node:crypto';
import type { Frequency } from '../../catalog/records';
import type { PaymentMethod } from '../../processor/port';
import type { Scope } from '../../store/keys';

/** Entity names of the Stripe adapter's own records (under the tenant scope). */
export const STRIPE = { price: 'STRIPE_PRICE', ref: 'STRIPE_REF', settings: 'STRIPE_SETTINGS' } as const;

/** The adapter's settings of one account+mode: recovery on the service's schedule (retention). */
export interface StripeSettingsRecord {
  recovery: { retryDays: number[] } | null;
  updatedAt: string;
}

/** The scheduler job that retries a failed renewal invoice on the service's recovery schedule. */
export const JOB_RETRY_INVOICE = 'processor.stripe-retry-invoice';
/** The recovery retry timer of one invoice (replaced by each failure, removed when it is paid). */
export const retryTimer = (invoiceId: string) => `stripe-retry-${invoiceId}`;

/** The Stripe product and current price of one catalog product or offer, kept in step with it. */
export interface StripePriceRecord {
  productId: string;
  stripeProductId: string;
  stripePriceId: string;
  planId: string;
  amountCents: number;
  currency: string;
  interval: Frequency | null;
  updatedAt: string;
}

/**
 * A spec id (`mem_`, `pay_`, `payt_`, `plan_`) with the Stripe id stored beside it, and what the
 * adapter needs to order Stripe's events: each guarded field moves forward only, and records the
 * event that moved it so a retried delivery of that same event still goes through.
 */
export interface StripeRef {
  specId: string;
  stripeId: string;
  kind: 'membership' | 'payment' | 'card' | 'plan';
  customerId?: string | null;
  // membership
  planId?: string;
  status?: 'trialing' | 'active' | 'past_due' | 'canceled';
  periodEnd?: number;
  advancedBy?: string;
  failedPeriodEnd?: number;
  failedAttempt?: number;
  failedBy?: string;
  /** Unix seconds of a failed renewal's first failure (recovery counts its retry days from it). */
  failedSince?: number;
  failedSinceEnd?: number;
  canceledBy?: string;
  /** Paid renewals still discounted by a save offer or an intro price on a weekly membership (Stripe's repeating coupons count months). */
  discountPaymentsLeft?: number;
  // payment
  amountCents?: number;
  currency?: string;
  membershipId?: string | null;
  refundedCents?: number;
  refundedBefore?: number;
  refundedBy?: string;
  disputedBy?: string;
  // card
  paymentMethod?: PaymentMethod;
}

/**
 * Spec ids derive from the Stripe id (hash of scope and id): the same Stripe object always gets
 * the same spec id, so two deliveries racing to record it cannot mint two.
 */
export function specId(prefix: 'mem' | 'pay' | 'payt' | 'plan', scope: Scope, stripeId: string): string {
  return `${prefix}_${createHash('sha256').update(`${scope.accountId}|${scope.mode}|${stripeId}`).digest('hex').slice(0, 24)}`;
}

export const STRIPE_INTERVALS: Record<Frequency, { interval: 'week' | 'month' | 'year'; interval_count: number }> = {
  weekly: { interval: 'week', interval_count: 1 },
  monthly: { interval: 'month', interval_count: 1 },
  yearly: { interval: 'year', interval_count: 1 },
};

export const frequencyOf = (interval: string | undefined): Frequency => (interval === 'week' ? 'weekly' : interval === 'year' ? 'yearly' : 'monthly');

/** Metadata keys the adapter adds to what it creates in Stripe (the seller's own keys are kept). */
export const META = {
  account: 'cc_account_id',
  mode: 'cc_mode',
  session: 'cc_session_id',
  plan: 'cc_plan_id',
  currency: 'cc_currency',
  saveCard: 'cc_save_card',
  product: 'cc_product_id',
  introPayments: 'cc_intro_payments',
} as const;
