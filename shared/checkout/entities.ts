import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import { CHECKOUT, CHECKOUT_LOCATOR, type CheckoutSessionRecord } from './records';

const sessionKey = (scope: Scope, id: string) => keys.entity(scope, CHECKOUT, id);
const locatorKey = (sessionId: string) => keys.capability(CHECKOUT_LOCATOR, sessionId);

export interface CheckoutLocator {
  accountId: string;
  mode: Scope['mode'];
  processorCheckoutId: string;
}

export const checkoutSessionEntity = defineEntity<CheckoutSessionRecord>()({
  entity: 'CheckoutSession',
  version: 1,
  owner: 'checkout',
  key: sessionKey,
  keyArgs: ['scope', 'sessionId'],
  patterns: {
    byId: { kind: 'get', summary: 'Checkout session by id', key: sessionKey, args: ['scope', 'sessionId'], consistent: true, notes: 'completed once, conditioned on status = open' },
  },
});

/** Scope-free pointer from a session id to its tenant, for the local control API's pay route. */
export const checkoutLocatorEntity = defineEntity<CheckoutLocator>()({
  entity: 'CheckoutLocator',
  version: 1,
  owner: 'checkout',
  key: locatorKey,
  keyArgs: ['sessionId'],
  patterns: {
    bySession: { kind: 'get', summary: 'Checkout session locator (local control API)', key: locatorKey, args: ['sessionId'], notes: 'holds accountId, mode and the processor checkout id' },
  },
});
