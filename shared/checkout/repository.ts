import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { CHECKOUT, CHECKOUT_LOCATOR, type CheckoutSessionRecord } from './records';

export function sessionPuts(scope: Scope, session: CheckoutSessionRecord): TransactOp[] {
  return [
    { put: toItem(keys.entity(scope, CHECKOUT, session._id), 'CheckoutSession', session, { expiresAt: undefined }), condition: 'attribute_not_exists(PK)' },
    { put: toItem(keys.capability(CHECKOUT_LOCATOR, session._id), 'CheckoutLocator', { accountId: scope.accountId, mode: scope.mode, processorCheckoutId: session.processorCheckoutId }) },
  ];
}

export async function getSession(store: Store, scope: Scope, id: string): Promise<CheckoutSessionRecord | undefined> {
  return toRecord<CheckoutSessionRecord>(await store.get(keys.entity(scope, CHECKOUT, id), { consistent: true }));
}

export async function locateSession(store: Store, id: string) {
  return store.get<{ accountId: string; mode: Scope['mode']; processorCheckoutId: string }>(keys.capability(CHECKOUT_LOCATOR, id));
}

/** Marks the session completed once; a second completion fails the transaction it rides in. */
export const sessionCompleted = (scope: Scope, id: string, set: { saleId: string | null; subscriberId: string | null; completedAt: string }): TransactOp => ({
  update: keys.entity(scope, CHECKOUT, id),
  set: { ...set, status: 'completed' },
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});


/** Records on the open session that its discount use was counted with the payment. */
export const sessionDiscountClaimed = (scope: Scope, id: string): TransactOp => ({
  update: keys.entity(scope, CHECKOUT, id),
  set: { discountClaimed: true },
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});
