export const CHECKOUT = 'CHECKOUT';
/** Scope-free pointer from a session id to its tenant, for the local control API's pay route. */
export const CHECKOUT_LOCATOR = 'checkout-session';
export const CHECKOUT_RECOVERY = 'CHECKOUT_RECOVERY';
export const RECOVERY_LINK = 'checkout-recovery';

export interface CheckoutSessionRecord {
  _id: string;
  /** The product or offer id as given. */
  productId: string;
  kind: 'one_time' | 'subscription';
  productName: string;
  amountCents: number;
  originalAmountCents: number;
  currency: string;
  discountCode: string | null;
  discountId: string | null;
  /** The code's use was counted when the payment was made (sandbox); completion does not count it again. */
  discountClaimed?: boolean;
  referralCode: string | null;
  /**
   * The upsell the buyer added on the hosted page: a second line, charged with the product in the
   * same payment; `amountCents` includes it.
   */
  upsell?: SessionUpsellLine | null;
  /**
   * Pay what you want: the product's floor and suggested price; `amountCents` is what the buyer
   * chose (the suggestion until they change it on the hosted page).
   */
  payWhatYouWant?: { minimumCents: number; suggestedCents: number } | null;
  /** Opened by a public buy link: such sessions expire unpaid after BUY_LINK_SESSION_SECONDS. */
  viaBuyLink?: boolean;
  /** Seats bought, for offers sold per seat (usage billing); the amount includes them. */
  seats?: number;
  /** What those seats add to the amount, so a code applied later on the page reprices the product only. */
  seatsAmountCents?: number;
  /**
   * An intro price (retention): the subscription's first `periods` charges, today's included, cost
   * `amountCents` (seats included); `amountCents` of the session is the regular price after them.
   */
  intro?: { amountCents: number; periods: number } | null;
  /**
   * The buyer ticked the newsletter box on the hosted checkout: the words they agreed to, and
   * when (written with the payment). Absent or null: no consent given at checkout.
   */
  marketingConsent?: MarketingConsent | null;
  successUrl: string;
  cancelUrl: string;
  clientReferenceId: string | null;
  metadata: Record<string, unknown>;
  processorCheckoutId: string;
  planId: string;
  url: string;
  status: 'open' | 'completed';
  saleId: string | null;
  subscriberId: string | null;
  testMode: boolean;
  createdAt: string;
  completedAt: string | null;
  /** The buyer's address once known: given at creation (`customerEmail`) or typed on the hosted page. */
  customerEmail?: string | null;
  /** The buyer's language, saved at checkout: their receipt and any recovery mail speak it. */
  buyerLocale?: string | null;
  /** When this session's abandoned-checkout timer falls due (set once one is scheduled). */
  recoveryDueAt?: string | null;
  /** When the timer found the session abandoned (its event, and its mail unless the buyer is suppressed): at most once. */
  abandonedAt?: string | null;
  /** On a session opened or reopened through a recovery link: the abandoned session the mail was about. */
  recoveredFrom?: string | null;
}

/** The seller's abandoned-checkout settings (one per account and mode). */
export interface RecoverySettingsRecord {
  enabled: boolean;
  delayMinutes: number;
  /** Applied when the buyer comes back through the mail's link. */
  discountCode: string | null;
  updatedAt: string | null;
}

export const DEFAULT_RECOVERY: RecoverySettingsRecord = { enabled: false, delayMinutes: 60, discountCode: null, updatedAt: null };

/** The capability behind a recovery mail's link: scope-free, found by its token. */
export interface RecoveryLinkRecord {
  token: string;
  accountId: string;
  mode: 'live' | 'test';
  sessionId: string;
  validUntil: string;
}

export interface MarketingConsent {
  wording: string;
  optedInAt: string;
}

/** Internal event (never a webhook): the buyer of a completed checkout consented to marketing mail. */
export const CHECKOUT_CONSENT_EVENT = 'checkout.marketing_consent';

export interface SessionUpsellLine {
  upsellId: string;
  productId: string;
  productName: string;
  amountCents: number;
}
