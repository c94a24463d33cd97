import type { Frequency } from '../catalog/records';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';

/**
 * The payment processor as the rest of the service sees it. The sandbox provider
 * (shared/adapters/processor-sandbox/) and the Stripe provider (shared/adapters/processor-stripe/)
 * implement it; the router (router.ts) picks one per account and mode. Results of checkouts, renewals, refunds and disputes arrive later as signed notifications
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
  /** The catalog product or offer sold, so a provider can keep one price per product (Stripe). */
  productId?: string;
  /** The price before the discount; `amountCents` is what the buyer pays. */
  originalAmountCents?: number;
  discountCode?: string | null;
  clientReferenceId?: string | null;
  /** The buyer's address when known (a buy link's `?email=`, `customerEmail`): a hosted page fills it in. */
  buyerEmail?: string;
  metadata?: Record<string, unknown>;
  /** Tax of this account+mode's processor settings (the router adds it): computed on top of `amountCents`. */
  tax?: { automatic?: boolean; simulatedRatePercent?: number } | null;
  /**
   * An intro price (retention): the subscription's first `payments` charges, the checkout's own
   * first charge included, are `amountCents`; every later one is the checkout's `amountCents`.
   */
  intro?: IntroPrice | null;
}

/** The first `payments` charges of a subscription, counted from its first, at `amountCents`. */
export interface IntroPrice {
  amountCents: number;
  payments: number;
}

export interface PayInput {
  buyer: Buyer & { vatNumber?: string };
  cardNumber?: string;
  saveCard?: boolean;
  /** The service's writes that must hold for this payment (see PaymentClaim). */
  claim?: PaymentClaim;
}

/**
 * Writes of the service's own records that a payment depends on (a discount code's use, counted
 * against its maxUses). The sandbox commits them in the payment's own transaction: a failed
 * condition refuses the payment with `refusal` (nothing is charged), and a declined card never
 * writes them, so a claim is never held without a payment. Providers that host their own page
 * (Stripe) cannot take part; the service counts the use when the order completes instead.
 */
export interface PaymentClaim {
  ops: TransactOp[];
  refusal: { message: string; code: string };
  /**
   * What the payment's completion notice carries back to the service, written with the payment
   * (so it exists only with one) but on no record of the service's: the buyer's newsletter
   * consent, which completion then records (CheckoutCompletedData.marketingConsent).
   */
  notify?: { marketingConsent?: { wording: string; optedInAt: string } };
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
  /**
   * The processor's own subscription that bills the membership (`sub_`, one of the spec's processor
   * id prefixes), when the processor has one.
   */
  subscriptionId?: string;
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

export interface MembershipChargeInput {
  amountCents: number;
  currency: string;
  description: string;
  /**
   * Names this charge attempt (usage: subscriber, period and attempt). A provider with idempotent
   * requests (Stripe) charges once however often the same attempt is asked for again, after a
   * lost answer or a retried job.
   */
  reference?: string;
}

export interface RecoveryPolicy {
  /** Days after the first failure of a renewal on which it is tried again (ascending). */
  retryDays: number[];
}

export interface MembershipAdjustment {
  /** The next `payments` renewals charge `amountCents` (replaces any earlier override). */
  nextPayments?: { amountCents: number; payments: number };
  /** Moves the period end forward by this many periods with no charge (a pause that skips renewals). */
  skipPeriods?: number;
  /** From the next period boundary on: this interval and price. */
  switchAtNextRenewal?: { interval: Frequency; amountCents: number };
  /** A past-due membership: void the unpaid renewal and pause it (access kept, no charge until resumed). */
  voidAndPause?: boolean;
}

/** The processor said no (declined, refused, unreachable): callers decide how to degrade. */
export class ProcessorError extends Error {
  constructor(
    message: string,
    readonly code: 'refused' | 'not_found' | 'declined' | 'invalid' = 'refused',
    /** The API error code to answer with, when the refusal has one of the service's own (DISCOUNT_EXHAUSTED). */
    readonly reason?: string,
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
  completeFreeCheckout(checkoutId: string, buyer: Buyer, claim?: PaymentClaim): Promise<PayResult>;
  /** Charges a saved card now; the answer is synchronous (credits auto-refill). */
  chargeSavedCard(
    scope: Scope,
    input: { paymentMethodId: string; amountCents: number; currency: string; description: string },
  ): Promise<{ paymentId: string; paymentMethod: PaymentMethod }>;
  /**
   * Charges a membership's card once, outside its renewals (a period's usage overage); the answer
   * is synchronous, a decline throws `ProcessorError` with code `declined`.
   */
  chargeMembership(scope: Scope, membershipId: string, input: MembershipChargeInput): Promise<{ paymentId: string; paymentMethod: PaymentMethod | null }>;
  /**
   * Credits consent withdrawn: the saved card is no longer kept for off-session charges (Stripe
   * detaches it from the customer). Later `chargeSavedCard` calls with it are refused `not_found`.
   * Idempotent: an unknown or already detached card is not an error.
   */
  detachSavedCard(scope: Scope, paymentMethodId: string): Promise<void>;
  /**
   * A page of the processor's own where the buyer enters a new card for a membership (the Stripe
   * Billing Portal's payment-method flow; the sandbox's card-update page). The card is used for the
   * membership's next charge, and a past-due membership is charged again at once. The link is
   * short-lived and single-purpose: ask for a fresh one per visit.
   */
  cardUpdateSession(scope: Scope, membershipId: string, input: { returnUrl: string; baseUrl: string }): Promise<{ url: string; expiresAt: string }>;
  /**
   * A buyer erased (shared/privacy): the processor's own records of them, found through the
   * payment methods their orders used, lose the address and name, and the cards are no longer kept
   * for later charges. Payments and memberships stay (the books). Idempotent. Optional: with a
   * provider without it, the seller erases the buyer in the provider's own dashboard.
   */
  eraseBuyer(scope: Scope, buyer: { email: string; paymentMethodIds: string[] }): Promise<void>;
  pauseMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  resumeMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  cancelMembership(scope: Scope, membershipId: string, options: { atPeriodEnd: boolean }): Promise<LiveMembership>;
  refund(scope: Scope, paymentId: string, amountCents?: number): Promise<void>;
  dispute(scope: Scope, paymentId: string): Promise<void>;
  getMembership(scope: Scope, membershipId: string): Promise<LiveMembership>;
  getPayment(scope: Scope, paymentId: string): Promise<LivePayment>;
  /**
   * Checks a notification's signature on the ingress with the provider's own scheme and secret
   * (`nowSeconds` bounds its age). The ingress trusts nothing it did not verify this way.
   */
  verifyNotification(headers: Record<string, string>, rawBody: string, nowSeconds: number): Promise<{ ok: true } | { ok: false; reason: string }>;
  /** The provider a scope uses (the router answers it; `GET /users/me`). */
  providerOf?(scope: Scope): Promise<'sandbox' | 'stripe' | 'none'>;
  /**
   * Failed-renewal recovery of an account+mode (retention): retry a failed renewal this many days
   * after the first failure and leave the membership past due after the last retry (the service
   * decides its end); null restores the provider's own schedule.
   */
  setRecoveryPolicy(scope: Scope, policy: RecoveryPolicy | null): Promise<void>;
  /** Changes a membership's coming renewals (retention: save offers, intro price, yearly switch). */
  adjustMembership(scope: Scope, membershipId: string, change: MembershipAdjustment): Promise<LiveMembership>;
  /** Sandbox only: renew a membership now with the given outcome. */
  renewNow?(scope: Scope, membershipId: string, outcome: 'succeed' | 'fail'): Promise<void>;
  /** Sandbox only: from now on the membership's card declines (or pays again). */
  setCardDeclining?(scope: Scope, membershipId: string, declining: boolean): Promise<void>;
  /** Sandbox only: the next call of this kind fails. */
  refuseNext?(operation: RefusableOperation): void;
}

/** A provider whose port depends on the scope's own secrets (Stripe: the seller's keys). */
export interface ScopedProcessorProvider {
  forScope(scope: Scope, secrets: Record<string, string>): ProcessorPort;
}

// ---- notifications: what the processor reports, signed, on the ingress route ----

/** A notification as the ingress receives it (after its signature is verified). */
export interface ProcessorNotification {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  accountId: string;
  mode: Scope['mode'];
  data: Record<string, unknown>;
}

/** `checkout.completed`: a hosted checkout was paid (or completed free). */
export interface CheckoutCompletedData {
  checkoutId: string;
  sessionId: string;
  buyer: { email: string; firstName: string | null; lastName: string | null; country: string | null };
  paymentMethod: PaymentMethod | null;
  savedCard: boolean;
  payment: { id: string; amountCents: number; currency: string; planId: string } | null;
  /**
   * Tax the processor computed on top of `payment.amountCents` (which excludes it), with the
   * buyer's VAT number when they gave one; absent when no tax was computed.
   */
  tax?: { amountCents: number; ratePercent: number; vatNumber: string | null } | null;
  membership: { id: string; status: 'active' | 'trialing'; currentPeriodStart: string; currentPeriodEnd: string; trialEnd: string | null } | null;
  /** The newsletter consent the buyer gave on the processor's page with the payment (PaymentClaim.notify). */
  marketingConsent?: { wording: string; optedInAt: string };
}

/** `charge.succeeded`: a membership's renewal (or first charge after a trial) was paid. */
export interface ChargeSucceededData {
  membershipId: string;
  billingReason: 'initial' | 'renewal';
  payment: { id: string; amountCents: number; currency: string; planId: string };
  paymentMethod: PaymentMethod | null;
  membership: { status: 'active'; currentPeriodStart: string; currentPeriodEnd: string };
}

/** `charge.failed`: a membership's charge was declined; `final` ends the membership. */
export interface ChargeFailedData {
  membershipId: string;
  billingReason: 'initial' | 'renewal';
  attempt: number;
  final: boolean;
  nextRetryAt: string | null;
  failureMessage: string;
  declineCode: string;
  amountCents: number;
  currency: string;
}

/** `membership.canceled`: the membership ended (at its period end). */
export interface MembershipCanceledData {
  membershipId: string;
}

/** `payment.refunded`: part or all of a payment was refunded. */
export interface PaymentRefundedData {
  paymentId: string;
  refundId: string;
  amountCents: number;
  refundedCents: number;
  full: boolean;
}

/** `payment.disputed`: the buyer disputed a payment. */
export interface PaymentDisputedData {
  paymentId: string;
}

declare module '../platform/ports' {
  interface Ports {
    /** The router (router.ts): picks each account+mode's provider. Services use this one. */
    processor: ProcessorPort;
    /** The sandbox provider itself (its hosted page, jobs and control routes use it). */
    processorSandbox: ProcessorPort;
    /** The Stripe provider, when its adapter is in the app. */
    processorStripe?: ScopedProcessorProvider;
  }
}
