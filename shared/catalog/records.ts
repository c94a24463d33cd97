/**
 * Catalog records as stored. Money is integer cents; the API shows `price` in major units (USD).
 * Other capabilities (checkout, funnels, storefront) read these through repository.ts.
 */
export const PRODUCT = 'PRODUCT';
export const OFFER = 'OFFER';

export interface CreditAutoRefill {
  enabled: boolean;
  topOffCents: number;
}

export interface ProductRecord {
  _id: string;
  name: string;
  description?: string;
  priceCents: number;
  currency: string;
  /** `digital` unless stated; `credits` products sell a credit balance. */
  productType: 'digital' | 'credits' | string;
  /** Credits granted per purchase (credits products). */
  creditAmount?: number;
  creditAutoRefill?: CreditAutoRefill;
  /** Pay what you want: the buyer chooses at least `minimumCents`. */
  payWhatYouWant?: { enabled: boolean; minimumCents: number };
  published: boolean;
  refundPolicyId?: string | null;
  imageIds?: string[];
  /** A licence key per paid order (software): how many machines may activate it, and for how long it works. */
  licenseKeys?: LicenseKeySettings;
  /** How many times one order may download the product's files (each file counts); unlimited when absent. */
  downloadLimit?: number;
  /** File types the seller allows beyond the deliverable ones (extensions such as `.dmg`). */
  allowedFileTypes?: string[];
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set by DELETE: the record stays for history joins (orders) but is gone for every read path. */
  deletedAt?: string;
}

export interface LicenseKeySettings {
  enabled: boolean;
  activationLimit: number;
  /** Days a key works after the order; never expires when absent. */
  expiresInDays?: number;
}

/** Scope-free pointer from a product id to its tenant: the public buy link names only the product. */
export interface ProductLocator {
  accountId: string;
  mode: 'live' | 'test';
}

export type Frequency = 'weekly' | 'monthly' | 'yearly';

export interface UsagePricing {
  seats?: { enabled: boolean; [field: string]: unknown };
  meters?: { [field: string]: unknown }[];
}

export interface OfferRecord {
  _id: string;
  name: string;
  description?: string;
  priceCents: number;
  currency: string;
  frequency: Frequency;
  trialPeriod?: number;
  usagePricing?: UsagePricing;
  published: boolean;
  /** Storefront image ids; a multipart create's `image` file becomes one of them. */
  imageIds?: string[];
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set by DELETE: the record stays for subscribers and sales that point to it. */
  deletedAt?: string;
}
