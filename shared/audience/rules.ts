import * as z from '../platform/zod';
import type { ContactRecord, ContactSource, ContactStatus, Consent } from './records';

export const MAX_TAGS_PER_CONTACT = 100;
export const MAX_TAG_LENGTH = 100;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

const emailCheck = z.string().check(z.email());
export const isValidEmail = (email: string) => emailCheck.safeParse(email).success;

/** Tags are exact strings (trimmed); duplicates collapse, order of first appearance kept. */
export const cleanTags = (tags: string[]) => [...new Set(tags.map((t) => t.trim()).filter(Boolean))];

/** Whether mail may go to a contact with this status (only `subscribed` may receive posts). */
export const isMailable = (status: ContactStatus) => status === 'subscribed';

/** Bounced and complained are set by the mail provider only; a person cannot be put back by hand. */
/**
 * Marketing mail (posts, funnels, automations) goes only to contacts who consented: a buyer
 * becomes a contact at checkout (`source: checkout`) without consent unless they ticked the opt-in
 * box. Contacts the seller added (dashboard, API), signed up through a form or imported with their
 * consent, and contacts from before sources existed, are the seller's to mail as before.
 */
export const mayMarketTo = (contact: Pick<ContactRecord, 'status' | 'source' | 'consent'>) =>
  isMailable(contact.status) && (contact.source !== 'checkout' || contact.consent !== null);

/** The opt-in ticked at checkout: consent recorded (a first consent stays), an unsubscribed address subscribed again. */
export function withCheckoutConsent(contact: ContactRecord, consent: Consent, now: string): ContactRecord {
  const resubscribe = contact.status === 'unsubscribed';
  return { ...contact, consent: contact.consent ?? consent, ...(resubscribe ? { status: 'subscribed' as const, unsubscribedAt: null } : {}), updatedAt: now };
}

export const isSuppressedStatus = (status: ContactStatus) => status === 'bounced' || status === 'complained';

export interface NewContactInput {
  email: string;
  source?: ContactSource | null;
  status?: ContactStatus;
  tags?: string[];
  consent?: Consent | null;
  name?: string | null;
  country?: string | null;
}

export function buildContact(input: NewContactInput, meta: { id: string; now: string }): ContactRecord {
  return {
    _id: meta.id,
    email: normalizeEmail(input.email),
    status: input.status ?? 'subscribed',
    source: input.source ?? null,
    tags: cleanTags(input.tags ?? []),
    smartTags: [],
    consent: input.consent ?? null,
    name: input.name ?? null,
    country: input.country ? input.country.toUpperCase() : null,
    firstPurchaseAt: null,
    lastPurchaseAt: null,
    totalSpentCents: 0,
    productIds: [],
    lastOpenAt: null,
    lastClickAt: null,
    unsubscribedAt: input.status === 'unsubscribed' ? meta.now : null,
    createdAt: meta.now,
    updatedAt: meta.now,
  };
}

/**
 * What a later sign-up, import or purchase adds to an existing contact: fills what is missing and
 * adds tags, never overwrites a name or consent the contact has, and never changes its status.
 */
export function mergeContact(current: ContactRecord, input: Omit<NewContactInput, 'email' | 'status'>, now: string): ContactRecord {
  return {
    ...current,
    source: current.source ?? input.source ?? null,
    tags: cleanTags([...current.tags, ...(input.tags ?? [])]),
    consent: current.consent ?? input.consent ?? null,
    name: current.name ?? input.name ?? null,
    country: current.country ?? (input.country ? input.country.toUpperCase() : null),
    updatedAt: now,
  };
}

export interface SaleFact {
  productId: string;
  amountCents: number;
  /** Counted in the total only in the account's currency. */
  inAccountCurrency: boolean;
  at: string;
  country?: string | null;
}

/** The purchase facts segments use, after one completed sale. */
export function applySale(contact: ContactRecord, sale: SaleFact, now: string): ContactRecord {
  return {
    ...contact,
    firstPurchaseAt: contact.firstPurchaseAt && contact.firstPurchaseAt < sale.at ? contact.firstPurchaseAt : sale.at,
    lastPurchaseAt: contact.lastPurchaseAt && contact.lastPurchaseAt > sale.at ? contact.lastPurchaseAt : sale.at,
    totalSpentCents: contact.totalSpentCents + (sale.inAccountCurrency ? sale.amountCents : 0),
    productIds: sale.productId && !contact.productIds.includes(sale.productId) ? [...contact.productIds, sale.productId] : contact.productIds,
    // The billing country of the latest purchase.
    country: sale.country ? sale.country.toUpperCase() : contact.country,
    updatedAt: now,
  };
}
