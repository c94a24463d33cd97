import type { Scope } from '../store/keys';
import { putNew } from '../store/conditional';
import type { Item, Store, TransactOp } from '../store/store';
import { checkoutLocatorEntity, checkoutSessionEntity, recoveryLinkEntity, recoverySettingsEntity } from './entities';
import type { CheckoutSessionRecord, MarketingConsent, RecoveryLinkRecord, RecoverySettingsRecord, SessionUpsellLine } from './records';

/**
 * The new session, put only if its id is new. `expiresAt` (epoch seconds): an unpaid session
 * disappears then (buy links); completion keeps it. One item, so a plain put (a transaction bills
 * it twice). Releases before wrote a scope-free locator with it for the local pay route; the
 * sandbox processor keeps that pointer now (a live processor has no such route).
 */
export function sessionPut(scope: Scope, session: CheckoutSessionRecord, expiresAt?: number): Item {
  return checkoutSessionEntity.item(checkoutSessionEntity.declaration.key(scope, session._id), session, expiresAt ? { expiresAt } : {});
}

export async function getSession(store: Store, scope: Scope, id: string): Promise<CheckoutSessionRecord | undefined> {
  // A session of an earlier release (an open one paid after the upgrade, a recovery timer) moves to its shard here.
  return checkoutSessionEntity.getMoving(store, 'byId', 'byIdBefore', scope, id);
}

/** The locator a session of a release before got (read by the local pay route for such sessions). */
export async function locateSession(store: Store, id: string) {
  return checkoutLocatorEntity.get(store, 'bySession', id);
}

/** Marks the session completed once; a second completion fails the transaction it rides in. */
export const sessionCompleted = (
  scope: Scope,
  id: string,
  set: { saleId: string | null; subscriberId: string | null; completedAt: string; marketingConsent?: MarketingConsent },
): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set: { ...set, status: 'completed' },
  // A paid buy-link session is history now: it no longer expires.
  remove: ['expiresAt'],
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

/** Records on the open session that its discount use was counted with the payment. */
export const sessionDiscountClaimed = (scope: Scope, id: string): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set: { discountClaimed: true },
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

/** The buyer added (or removed) the upsell on the hosted page: the new total with its line. */
export const sessionUpsellSet = (scope: Scope, id: string, set: { amountCents: number; upsell: SessionUpsellLine | null }, wasCents: number): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set,
  // Priced from the total read: a code applied meanwhile fails this write instead of being lost.
  condition: '#status = :open AND #amount = :was',
  names: { '#status': 'status', '#amount': 'amountCents' },
  values: { ':open': 'open', ':was': wasCents },
});

/** A new price on the open session (a discount code typed on the hosted page). */
export const sessionRepriced = (scope: Scope, id: string, set: { amountCents: number; discountCode: string; discountId: string }): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set,
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

// Abandoned checkouts (recovery.ts)

export const loadRecoverySettings = (store: Store, scope: Scope) => recoverySettingsEntity.get(store, 'ofTenant', scope);

export const saveRecoverySettings = (store: Store, scope: Scope, record: RecoverySettingsRecord) =>
  store.put(recoverySettingsEntity.item(recoverySettingsEntity.declaration.key(scope), record));

/** What the open session learnt of its buyer on the hosted page (address, language, timer). */
export const sessionBuyerNoted = (
  scope: Scope,
  id: string,
  set: Pick<CheckoutSessionRecord, 'customerEmail' | 'buyerLocale' | 'recoveryDueAt'>,
): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set,
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

/** The session found abandoned, once: fails when it is paid or was handled already. */
export const sessionAbandoned = (scope: Scope, id: string, at: string): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set: { abandonedAt: at },
  condition: '#status = :open AND attribute_not_exists(#abandoned)',
  names: { '#status': 'status', '#abandoned': 'abandonedAt' },
  values: { ':open': 'open' },
});

/** The buyer came back through the recovery link to this still-open session. */
export const sessionRecovered = (scope: Scope, id: string, from: string): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set: { recoveredFrom: from },
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

export const recoveryLinkPut = (link: RecoveryLinkRecord, expiresAt: number): TransactOp =>
  putNew(recoveryLinkEntity.item(recoveryLinkEntity.declaration.key(link.token), link, { expiresAt }));

export const getRecoveryLink = (store: Store, token: string) => recoveryLinkEntity.get(store, 'byToken', token);

/** The buyer chose another amount on the hosted page (pay what you want): the new total. */
export const sessionAmountSet = (scope: Scope, id: string, amountCents: number, wasCents: number): TransactOp => ({
  update: checkoutSessionEntity.declaration.key(scope, id),
  set: { amountCents },
  condition: '#status = :open AND #amount = :was',
  names: { '#status': 'status', '#amount': 'amountCents' },
  values: { ':open': 'open', ':was': wasCents },
});
