import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import {
  CHECKOUT,
  CHECKOUT_LOCATOR,
  CHECKOUT_RECOVERY,
  RECOVERY_LINK,
  type CheckoutSessionRecord,
  type RecoveryLinkRecord,
  type RecoverySettingsRecord,
} from './records';

// Write-sharded (store/shards.ts): a launch writes several units per checkout to its sessions.
const sessionKey = (scope: Scope, id: string) => keys.sharded(scope, CHECKOUT, id);
/** Where releases before write shards kept a session: moved to its shard when first read (getMoving). */
const sessionKeyBefore = (scope: Scope, id: string) => keys.entity(scope, CHECKOUT, id);
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
    byId: {
      kind: 'get',
      summary: 'Checkout session by id',
      key: sessionKey,
      args: ['scope', 'sessionId'],
      consistent: true,
      notes: 'completed once, conditioned on status = open; write shard of the id',
    },
    byIdBefore: {
      kind: 'get',
      summary: 'Checkout session written before write shards (moved to its shard when read)',
      key: sessionKeyBefore,
      args: ['scope', 'sessionId'],
      consistent: true,
    },
  },
});

/**
 * Scope-free pointer from a session id to its tenant, for the local control API's pay route: written
 * by releases before the sandbox processor kept that pointer itself; read for their sessions only.
 */
export const checkoutLocatorEntity = defineEntity<CheckoutLocator>()({
  entity: 'CheckoutLocator',
  version: 1,
  owner: 'checkout',
  key: locatorKey,
  keyArgs: ['sessionId'],
  patterns: {
    bySession: {
      kind: 'get',
      summary: 'Checkout session locator of a session of a release before (local control API)',
      key: locatorKey,
      args: ['sessionId'],
      notes: 'holds accountId, mode and the processor checkout id',
    },
  },
});

const recoverySettingsKey = (scope: Scope) => keys.entity(scope, CHECKOUT_RECOVERY, 'settings');
const recoveryLinkKey = (token: string) => keys.capability(RECOVERY_LINK, token);

/** The seller's abandoned-checkout settings, one item per account and mode. */
export const recoverySettingsEntity = defineEntity<RecoverySettingsRecord>()({
  entity: 'CheckoutRecoverySettings',
  version: 1,
  owner: 'checkout',
  key: recoverySettingsKey,
  keyArgs: ['scope'],
  patterns: {
    ofTenant: {
      kind: 'get',
      summary: 'Abandoned-checkout settings of an account and mode',
      key: recoverySettingsKey,
      args: ['scope'],
      notes: 'read when a session learns its buyer email and when its timer fires',
    },
  },
});

/** A recovery mail's link (GET /checkout/recover/{token}): names the abandoned session. */
export const recoveryLinkEntity = defineEntity<RecoveryLinkRecord>()({
  entity: 'CheckoutRecoveryLink',
  version: 1,
  owner: 'checkout',
  key: recoveryLinkKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Recovery link by its token (GET /checkout/recover/{token})', key: recoveryLinkKey, args: ['token'] },
  },
  notes: 'TTL a day after validUntil',
});
