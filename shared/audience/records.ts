/** How a contact joined; contacts that predate sources have none. */
export const CONTACT_SOURCES = ['form', 'checkout', 'import', 'dashboard', 'api', 'recommendation'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

export const CONTACT_STATUSES = ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

export interface Consent {
  source: string;
  wording: string;
  optedInAt: string;
}

/** One newsletter contact per lower-cased email per account and mode. */
export interface ContactRecord {
  _id: string;
  email: string;
  status: ContactStatus;
  source: ContactSource | null;
  /** Exact strings, in the order added. */
  tags: string[];
  /** The tags a segment's smart tag added (a subset of `tags`): only these may a segment take back. */
  smartTags: string[];
  consent: Consent | null;
  name: string | null;
  country: string | null;
  // Facts segments select on.
  firstPurchaseAt: string | null;
  lastPurchaseAt: string | null;
  /** Completed sales in the account currency, integer cents. */
  totalSpentCents: number;
  /** Products and subscription offers bought. */
  productIds: string[];
  lastOpenAt: string | null;
  lastClickAt: string | null;
  unsubscribedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SuppressionReason = 'bounce' | 'complaint';

/** An address no send of this account and mode may reach (bounced or complained). */
export interface SuppressionRecord {
  email: string;
  reason: SuppressionReason;
  suppressedAt: string;
}

export const CONTACT = 'CONTACT';
export const CONTACT_EMAIL = 'CONTACT_EMAIL';
export const SUPPRESSED = 'SUPPRESSED';
