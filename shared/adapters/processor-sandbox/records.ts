import type { CreateCheckoutInput, LiveMembership, LivePayment, PaymentMethod } from '../../processor/port';
import type { Scope } from '../../store/keys';

/**
 * The sandbox processor's own records, kept in the service's table: SBX_* entities under the
 * tenant scope, and the hosted checkout as a scope-free capability item (its id is the secret of
 * the hosted page's address).
 */
export const SBX = {
  checkout: 'sbx-checkout',
  session: 'sbx-session',
  cardUpdate: 'sbx-card-update',
  membership: 'SBX_MEMBERSHIP',
  payment: 'SBX_PAYMENT',
  card: 'SBX_CARD',
  notification: 'SBX_NOTIFICATION',
  settings: 'SBX_SETTINGS',
} as const;

/** The account+mode's processor settings the service sets (failed-renewal recovery). */
export interface SandboxSettings {
  recovery: { retryDays: number[] } | null;
}

export const JOB_DELIVER = 'processor.deliver';
export const JOB_RENEW = 'processor.renew';

/** A hosted checkout as the sandbox keeps it: what the service asked for, plus its own state. */
export interface SandboxCheckout extends Omit<CreateCheckoutInput, 'baseUrl'> {
  id: string;
  scope: Scope;
  planId: string;
  status: 'open' | 'paid';
  paymentId?: string;
  membershipId?: string;
  createdAt: string;
}

/** A membership as the sandbox keeps it: what it reports (LiveMembership) plus its own state. */
export interface SandboxMembership extends Omit<LiveMembership, 'retries' | 'paymentMethod'> {
  planId: string;
  failures: number;
  /** Set by the control API's failing renewal: every charge of this membership declines. */
  declining: boolean;
  paymentMethod: PaymentMethod | null;
  notifyUrl: string;
  createdAt: string;
  /** The next `remaining` renewals charge this amount instead of amountCents (intro price, save discount). */
  nextPayments?: { amountCents: number; remaining: number } | null;
  /** Applied at the next period boundary (yearly switch). */
  switchAtRenewal?: { interval: SandboxMembership['interval']; amountCents: number } | null;
  /** When the renewal now past due first failed (recovery retries count from it). */
  firstFailureAt?: string | null;
}

export interface SandboxPayment {
  id: string;
  amountCents: number;
  refundedCents: number;
  currency: string;
  status: LivePayment['status'];
  membershipId: string | null;
  paymentMethod: PaymentMethod | null;
  notifyUrl: string | null;
  createdAt: string;
}

export interface SandboxNotification {
  id: string;
  type: string;
  accountId: string;
  mode: Scope['mode'];
  created: number;
  data: Record<string, unknown>;
  notifyUrl: string;
  deliveredAt?: string;
  attempts: number;
}

/**
 * A card-update session: the address of the sandbox's card-update page (its id is the secret, like
 * a hosted checkout's), bound to one membership, used once, and short-lived.
 */
export interface SandboxCardUpdate {
  id: string;
  scope: Scope;
  membershipId: string;
  returnUrl: string;
  status: 'open' | 'used';
  validUntil: string;
  createdAt: string;
  /** Set when used: the new card's last digits and whether a past-due charge was retried with it. */
  last4?: string;
  retried?: boolean;
}
