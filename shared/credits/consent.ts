import { lookupProduct } from '../catalog/service';
import type { Deps } from '../platform/context';
import { newEvent, outboxPut } from '../platform/events';
import { conflict, notFound } from '../platform/errors';
import { isObjectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { onConditionFailed } from '../store/conditional';
import { consentDisabledData } from './events';
import type { CreditAccountRecord } from './records';
import { creditConsentPut, findCreditLink, getCreditAccount } from './repository';
import { presentCreditAccount } from './service';

/**
 * Withdrawing consent to auto top-ups (commerce spec: `credit.consent.disabled`). The seller does
 * it through the API (`DELETE /credits/accounts/{id}/consent`), the buyer through the link in every
 * credit mail and on their balance page. Either way one transaction turns consent off, forgets the
 * card for top-offs and commits the event; the card is then detached at the processor from the
 * committed event (consumers.ts), so no top-off can follow, and a processor outage is retried
 * rather than lost.
 */

/** A top-off claim older than this is a crashed one: it no longer holds a withdrawal back. */
const CLAIM_STALE_MS = 60_000;
const ATTEMPTS = 5;

export type ConsentActor = 'seller' | 'buyer';

export async function disableConsent(deps: Deps, scope: Scope, creditAccountId: string, by: ConsentActor): Promise<CreditAccountRecord> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const account = isObjectId(creditAccountId) ? await getCreditAccount(deps.store, scope, creditAccountId) : undefined;
    if (!account) throw notFound('Credit account');
    // Already off: nothing changes and nothing is emitted (a second click, a retried request).
    if (!account.autoRefill.consent && !account.autoRefill.paymentMethodId) return account;
    const now = deps.clock.now();
    const { refillClaimedAt: _claim, ...rest } = account;
    const after: CreditAccountRecord = { ...rest, autoRefill: { consent: false, paymentMethodId: null }, updatedAt: now.toISOString() };
    const event = newEvent(scope, deps.clock, 'credit.consent.disabled', consentDisabledData(after, account.autoRefill.paymentMethodId, by));
    const staleBefore = new Date(now.getTime() - CLAIM_STALE_MS).toISOString();
    const written = await onConditionFailed(
      deps.store.transact([creditConsentPut(scope, after, account, staleBefore), outboxPut(event)]).then(() => true),
      () => false,
    );
    if (written) return after;
    // A deduction or a top-off charge under way: let it finish, then withdraw from its result.
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
  }
  throw conflict('The balance is being topped off right now; try again in a moment', 'CONCURRENT_UPDATE');
}

/** The seller's withdrawal: the account as `GET /credits/accounts` shows it. */
export async function disableConsentAsSeller(deps: Deps, scope: Scope, creditAccountId: string) {
  return presentCreditAccount(await disableConsent(deps, scope, creditAccountId, 'seller'));
}

export interface BalanceView {
  scope: Scope;
  productName: string;
  balanceCents: number;
  currency: string;
  paused: boolean;
  autoRefill: { enabled: boolean; topOffCents: number | null };
}

/** What the buyer's link opens: their balance and whether auto top-ups are on. Unknown links: 404. */
export async function balanceOfLink(deps: Deps, token: string): Promise<{ view: BalanceView; account: CreditAccountRecord }> {
  const link = /^[0-9A-Za-z]{32}$/.test(token) ? await findCreditLink(deps.store, token) : undefined;
  const scope: Scope | undefined = link ? { accountId: link.accountId, mode: link.mode } : undefined;
  const account = link && scope ? await getCreditAccount(deps.store, scope, link.creditAccountId) : undefined;
  if (!scope || !account || account.consentToken !== token) throw notFound('Credit balance');
  const product = await lookupProduct(deps, scope, account.productId);
  const topOff = product?.creditAutoRefill?.enabled ? product.creditAutoRefill.topOffCents : null;
  return {
    account,
    view: {
      scope,
      productName: product?.name ?? 'Credits',
      balanceCents: account.balanceCents,
      currency: account.currency,
      paused: account.status === 'paused',
      autoRefill: { enabled: account.autoRefill.consent, topOffCents: topOff },
    },
  };
}

/** The buyer's withdrawal through their link. */
export async function disableConsentByLink(deps: Deps, token: string): Promise<BalanceView> {
  const { view, account } = await balanceOfLink(deps, token);
  const after = await disableConsent(deps, view.scope, account._id, 'buyer');
  return {
    ...view,
    balanceCents: after.balanceCents,
    paused: after.status === 'paused',
    autoRefill: { ...view.autoRefill, enabled: after.autoRefill.consent },
  };
}
