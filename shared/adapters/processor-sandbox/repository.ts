/**
 * The sandbox processor's own records in the service's table (declared in entities.ts). sandbox.ts
 * and delivery.ts read and key them only through these functions.
 */
import type { Scope } from '../../store/keys';
import type { Item, Store, TransactOp } from '../../store/store';
import {
  sandboxCardEntity,
  sandboxCardUpdateEntity,
  sandboxCheckoutEntity,
  sandboxMembershipEntity,
  sandboxNotificationEntity,
  sandboxPaymentEntity,
  sandboxSessionPointerEntity,
  sandboxSettingsEntity,
  type SandboxCard,
} from './entities';
import type { SandboxCardUpdate, SandboxCheckout, SandboxMembership, SandboxNotification, SandboxPayment, SandboxSettings } from './records';

const NOTIFICATION_TTL_SECONDS = 30 * 24 * 3600;

export const checkoutKey = (checkoutId: string) => sandboxCheckoutEntity.declaration.key(checkoutId);
export const paymentKey = (scope: Scope, paymentId: string) => sandboxPaymentEntity.declaration.key(scope, paymentId);
export const notificationKey = (scope: Scope, notificationId: string) => sandboxNotificationEntity.declaration.key(scope, notificationId);

export const checkoutItem = (checkout: SandboxCheckout): Item => sandboxCheckoutEntity.item(checkoutKey(checkout.id), checkout);
export const membershipItem = (scope: Scope, m: SandboxMembership): Item =>
  sandboxMembershipEntity.item(sandboxMembershipEntity.declaration.key(scope, m.id), m);
export const paymentItem = (scope: Scope, p: SandboxPayment): Item => sandboxPaymentEntity.item(paymentKey(scope, p.id), p);
export const cardItem = (scope: Scope, card: SandboxCard): Item => sandboxCardEntity.item(sandboxCardEntity.declaration.key(scope, card.id), card);
export const notificationItem = (scope: Scope, n: SandboxNotification): Item =>
  sandboxNotificationEntity.item(notificationKey(scope, n.id), n, { expiresAt: n.created + NOTIFICATION_TTL_SECONDS });

export const getCheckout = (store: Store, checkoutId: string) => sandboxCheckoutEntity.get(store, 'byId', checkoutId);
export const sessionPointerItem = (checkout: SandboxCheckout): Item =>
  sandboxSessionPointerEntity.item(sandboxSessionPointerEntity.declaration.key(checkout.sessionId), {
    accountId: checkout.scope.accountId,
    mode: checkout.scope.mode,
    checkoutId: checkout.id,
  });
export const getSessionPointer = (store: Store, sessionId: string) => sandboxSessionPointerEntity.get(store, 'bySession', sessionId);
export const getMembership = (store: Store, scope: Scope, id: string) => sandboxMembershipEntity.get(store, 'byId', scope, id);
// Reads that move a record an earlier release wrote to its write shard, so writes by key find it.
export const getPayment = (store: Store, scope: Scope, id: string) => sandboxPaymentEntity.getMoving(store, 'byId', 'byIdBefore', scope, id);
export const getCard = (store: Store, scope: Scope, id: string) => sandboxCardEntity.getMoving(store, 'byId', 'byIdBefore', scope, id);
export const getNotification = (store: Store, scope: Scope, id: string) => sandboxNotificationEntity.getMoving(store, 'byId', 'byIdBefore', scope, id);

/** The open checkout's new amount, committed with the session's (a discount code on the hosted page). */
export const checkoutRepriced = (checkoutId: string, amountCents: number): TransactOp => ({
  update: checkoutKey(checkoutId),
  set: { amountCents },
  condition: '#status = :open',
  names: { '#status': 'status' },
  values: { ':open': 'open' },
});

export const cardUpdateKey = (sessionId: string) => sandboxCardUpdateEntity.declaration.key(sessionId);
export const cardUpdateItem = (session: SandboxCardUpdate): Item =>
  sandboxCardUpdateEntity.item(cardUpdateKey(session.id), session, { expiresAt: Math.floor(Date.parse(session.validUntil) / 1000) + 24 * 3600 });
export const getCardUpdate = (store: Store, sessionId: string) => sandboxCardUpdateEntity.get(store, 'byId', sessionId);

export const getSettings = (store: Store, scope: Scope) => sandboxSettingsEntity.get(store, 'byScope', scope);
export const settingsItem = (scope: Scope, settings: SandboxSettings): Item =>
  sandboxSettingsEntity.item(sandboxSettingsEntity.declaration.key(scope), settings);
