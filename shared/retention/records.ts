export type FinalAction = 'cancel' | 'pause' | 'keep';

/** Failed-renewal recovery of one account and mode. */
export interface RecoverySettings {
  enabled: boolean;
  finalAction: FinalAction;
  emailBuyer: boolean;
  updatedAt: string | null;
}

export type CaseStatus = 'open' | 'recovered' | 'closed';

/** One failed renewal under recovery: opened at the first failure, closed paid or by the final action. */
export interface RecoveryCase {
  _id: string;
  subscriberId: string;
  offerId: string;
  offerName: string;
  buyerEmail: string;
  currency: string;
  amountCents: number;
  status: CaseStatus;
  /** Failed attempts so far (the first charge included). */
  attempts: number;
  startedAt: string;
  lastFailedAt: string;
  nextRetryAt: string | null;
  finalActionAt: string;
  finalAction: FinalAction;
  recoveredAt: string | null;
  closedAt: string | null;
  /** What the final action did (closed cases). */
  outcome: 'canceled' | 'paused' | 'kept' | null;
}

export interface SaveOffersConfig {
  enabled: boolean;
  pauseMaxMonths: number;
  discountPercent: number;
  discountMonths: number;
}
export interface IntroConfig {
  enabled: boolean;
  /** Decimal major units (29.99); null until set. */
  price: number | null;
  periods: number;
}
export interface YearlySwitchConfig {
  enabled: boolean;
  afterPayments: number;
  percentOff: number;
}

/** The retention settings of one subscription offer. */
export interface OfferRetention {
  offerId: string;
  saveOffers: SaveOffersConfig;
  intro: IntroConfig;
  yearlySwitch: YearlySwitchConfig;
  updatedAt: string | null;
}

export type SaveKind = 'pause' | 'discount' | 'declined';

/** One cancel flow in the portal where save offers were shown. */
export interface SaveFlow {
  _id: string;
  subscriberId: string;
  offerId: string;
  kind: SaveKind;
  months: number | null;
  percent: number | null;
  reason: string | null;
  createdAt: string;
}

/** What retention did for one subscriber (intro price applied, yearly switch prompted or accepted). */
export interface SubscriberRetention {
  subscriberId: string;
  offerId: string;
  intro: { amountCents: number; periods: number; at: string } | null;
  yearlyPromptedAt: string | null;
  yearlySwitch: { amountCents: number; at: string } | null;
  /** The save discount taken: `payments` renewals at `percent` off, from payment `fromPayments` + 1 on (absent on older rows). */
  discount: { percent: number; payments: number; at: string; fromPayments?: number } | null;
  /** Payments made so far (initial and renewals), counted from paid invoice events. */
  payments?: number;
  /**
   * The save offer this subscriber took (one per subscriber and offer): claimed before the
   * processor is asked, so two concurrent accepts cannot both apply one.
   */
  saved?: { kind: 'pause' | 'discount'; at: string } | null;
}
