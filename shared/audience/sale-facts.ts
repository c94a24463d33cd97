import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { erasedSince } from '../platform/privacy';
import type { DomainEvent } from '../platform/events';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { Consent } from './records';
import * as repo from './repository';

import { applySale, isValidEmail, normalizeEmail, withCheckoutConsent } from './rules';
import { upsertContact } from './service';
import { markerSeen } from '../platform/markers';

/** Contacts kept current from sales and checkout consent (bus consumers). */

export const SALE_FACTS_CONSUMER = 'audience-sale-facts';

interface OrderCompletedData {
  order?: { id?: string; productId?: string; subscriptionId?: string | null; createdAt?: string };
  amount?: number;
  currency?: string;
  product?: { id?: string | null };
  customer?: { email?: string; firstName?: string | null; lastName?: string | null; country?: string | null };
}

/**
 * A committed sale creates or updates the buyer's contact (source `checkout`) with its purchase
 * facts, and with the newsletter consent the buyer gave at that checkout when the order's event
 * carries it (`internal.marketingConsent`, see recordCheckoutConsent): one contact write for both.
 * The processed marker goes in the same transaction, so a redelivered event changes nothing.
 */
export async function recordSaleFacts(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as OrderCompletedData;
  const email = data.customer?.email;
  if (!email || !isValidEmail(normalizeEmail(email))) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  if (await markerSeen(deps, SALE_FACTS_CONSUMER, event.id, event.created)) return;
  // A sale committed before its buyer was erased, delivered after: it must not bring the contact back.
  if (await erasedSince(deps, scope, email, new Date(event.created * 1000).toISOString())) return;
  const account = await getAccount(deps.store, event.accountId);
  const name = [data.customer?.firstName, data.customer?.lastName].filter(Boolean).join(' ') || null;
  const at = data.order?.createdAt ?? new Date(event.created * 1000).toISOString();
  const fact = {
    productId: data.product?.id ?? data.order?.productId ?? '',
    amountCents: Math.round((data.amount ?? 0) * 100),
    inAccountCurrency: !account || !data.currency || data.currency.toUpperCase() === account.currency.toUpperCase(),
    at,
    country: data.customer?.country ?? null,
  };
  const consent = checkoutConsent(event.internal?.marketingConsent);
  try {
    await upsertContact(
      deps,
      scope,
      { email, source: 'checkout', name, country: data.customer?.country ?? null, ...(consent ? { consent } : {}) },
      {
        extraOps: [repo.processedMarker(SALE_FACTS_CONSUMER, event.id, event.created)],
        apply: (contact) => {
          const now = deps.clock.now().toISOString();
          const bought = applySale(contact, fact, now);
          return consent ? withCheckoutConsent(bought, consent, now) : bought;
        },
      },
    );
  } catch (error) {
    // Another delivery of this event got there first.
    if (error instanceof ConditionFailed && (await deps.store.get(repo.markerKey(SALE_FACTS_CONSUMER, event.id), { consistent: true }))) return;
    throw error;
  }
}

/** The consent an order's event carries for this consumer, when it has the shape a checkout writes. */
function checkoutConsent(value: unknown): Consent | undefined {
  const consent = value as Partial<Consent> | undefined;
  return consent && typeof consent.wording === 'string' && typeof consent.optedInAt === 'string' && typeof consent.source === 'string'
    ? { source: consent.source, wording: consent.wording, optedInAt: consent.optedInAt }
    : undefined;
}

/**
 * Internal event of the checkout capability (shared/checkout/records.ts): the same name, no import
 * of it. A checkout with a sale now puts the consent on its `order.completed` instead; this event
 * still comes for a checkout without a sale (a trial) and from the release before.
 */
export const CHECKOUT_CONSENT_EVENT = 'checkout.marketing_consent';
const CONSENT_CONSUMER = 'audience-checkout-consent';

/**
 * A buyer ticked the newsletter box at checkout: the contact (source `checkout`) carries the
 * consent with the words shown. A contact without consent gets it; one that had unsubscribed is
 * subscribed again (the tick is a new, explicit request); a bounced or complained address is not.
 * Once per event (processed marker in the same transaction).
 */
export async function recordCheckoutConsent(deps: Deps, event: DomainEvent): Promise<void> {
  const data = event.data as { email?: string; firstName?: string | null; lastName?: string | null; consent?: Consent };
  if (!data.email || !data.consent || !isValidEmail(normalizeEmail(data.email))) return;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  if (await markerSeen(deps, CONSENT_CONSUMER, event.id, event.created)) return;
  const consent = data.consent;
  const name = [data.firstName, data.lastName].filter(Boolean).join(' ') || null;
  try {
    await upsertContact(
      deps,
      scope,
      { email: data.email, source: 'checkout', name, consent },
      {
        extraOps: [repo.processedMarker(CONSENT_CONSUMER, event.id, event.created)],
        apply: (contact) => withCheckoutConsent(contact, consent, deps.clock.now().toISOString()),
      },
    );
  } catch (error) {
    if (error instanceof ConditionFailed && (await deps.store.get(repo.markerKey(CONSENT_CONSUMER, event.id), { consistent: true }))) return;
    throw error;
  }
}
