import type { PaymentMethod } from '../../processor/port';
import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import {
  SBX,
  type SandboxCardUpdate,
  type SandboxCheckout,
  type SandboxMembership,
  type SandboxNotification,
  type SandboxPayment,
  type SandboxSettings,
} from './records';

/** A card the sandbox issued: what it reports, plus whether it declines and was saved for later charges. */
export type SandboxCard = PaymentMethod & { declines: boolean; saved: boolean; email: string };

const OWNER = 'adapters/processor-sandbox';
const checkoutKey = (checkoutId: string) => keys.capability(SBX.checkout, checkoutId);
const sessionPointerKey = (sessionId: string) => keys.capability(SBX.session, sessionId);
const cardUpdateKey = (sessionId: string) => keys.capability(SBX.cardUpdate, sessionId);
const membershipKey = (scope: Scope, id: string) => keys.entity(scope, SBX.membership, id);
// Payments, cards and notifications are written on every checkout: write-sharded (store/shards.ts).
// The `…Before` keys are where releases before sharding kept them; a read moves them (getMoving).
const paymentKey = (scope: Scope, id: string) => keys.sharded(scope, SBX.payment, id);
const cardKey = (scope: Scope, id: string) => keys.sharded(scope, SBX.card, id);
const notificationKey = (scope: Scope, id: string) => keys.sharded(scope, SBX.notification, id);
const paymentKeyBefore = (scope: Scope, id: string) => keys.entity(scope, SBX.payment, id);
const cardKeyBefore = (scope: Scope, id: string) => keys.entity(scope, SBX.card, id);
const notificationKeyBefore = (scope: Scope, id: string) => keys.entity(scope, SBX.notification, id);
const settingsKey = (scope: Scope) => keys.entity(scope, SBX.settings, 'settings');

/** One per account+mode: what the service set (recovery retry days). */
export const sandboxSettingsEntity = defineEntity<SandboxSettings>()({
  entity: 'SandboxSettings',
  version: 1,
  owner: OWNER,
  key: settingsKey,
  keyArgs: ['scope'],
  patterns: {
    byScope: {
      kind: 'get',
      summary: 'Sandbox settings of a tenant and mode (recovery retry days at a failed charge)',
      key: settingsKey,
      args: ['scope'],
      consistent: true,
    },
  },
});

/** The hosted checkout: scope-free, its id is the secret of the hosted page's address. */
export const sandboxCheckoutEntity = defineEntity<SandboxCheckout>()({
  entity: 'SandboxCheckout',
  version: 1,
  owner: OWNER,
  key: checkoutKey,
  keyArgs: ['cs_id'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Sandbox hosted checkout by id (hosted page, pay)',
      key: checkoutKey,
      args: ['cs_id'],
      consistent: true,
      notes: 'paid once, conditioned on status = open',
    },
  },
});

/** The service's session id to its tenant and this hosted checkout (what a buyer's "pay" names, locally). */
export interface SandboxSessionPointer {
  accountId: string;
  mode: Scope['mode'];
  checkoutId: string;
}

/**
 * Scope-free pointer from the service's checkout session id to its tenant and hosted checkout, for
 * the local control API's pay route (which names only the session). The sandbox keeps it with its
 * own checkout: a live processor has no such route, so the service writes no locator of its own.
 */
export const sandboxSessionPointerEntity = defineEntity<SandboxSessionPointer>()({
  entity: 'SandboxSessionPointer',
  version: 1,
  owner: OWNER,
  key: sessionPointerKey,
  keyArgs: ['sessionId'],
  patterns: {
    bySession: {
      kind: 'get',
      summary: 'Sandbox pointer from a checkout session id to its tenant and hosted checkout (local control API pay route)',
      key: sessionPointerKey,
      args: ['sessionId'],
      notes: 'written with the hosted checkout',
    },
  },
});

export const sandboxMembershipEntity = defineEntity<SandboxMembership>()({
  entity: 'SandboxMembership',
  version: 1,
  owner: OWNER,
  key: membershipKey,
  keyArgs: ['scope', 'mem_id'],
  patterns: {
    byId: { kind: 'get', summary: 'Sandbox membership by id (renewals, changes)', key: membershipKey, args: ['scope', 'mem_id'], consistent: true },
  },
});

export const sandboxPaymentEntity = defineEntity<SandboxPayment>()({
  entity: 'SandboxPayment',
  version: 1,
  owner: OWNER,
  key: paymentKey,
  keyArgs: ['scope', 'pay_id'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Sandbox payment by id (refunds, disputes)',
      key: paymentKey,
      args: ['scope', 'pay_id'],
      consistent: true,
      notes: 'refunds conditioned on refundedCents as read',
    },
    byIdBefore: {
      kind: 'get',
      summary: 'Sandbox payment written before write shards (moved when read)',
      key: paymentKeyBefore,
      args: ['scope', 'pay_id'],
      consistent: true,
    },
  },
});

export const sandboxCardEntity = defineEntity<SandboxCard>()({
  entity: 'SandboxCard',
  version: 1,
  owner: OWNER,
  key: cardKey,
  keyArgs: ['scope', 'pm_id'],
  patterns: {
    byId: { kind: 'get', summary: 'Sandbox card by id (saved-card charges)', key: cardKey, args: ['scope', 'pm_id'] },
    byIdBefore: { kind: 'get', summary: 'Sandbox card written before write shards (moved when read)', key: cardKeyBefore, args: ['scope', 'pm_id'] },
  },
});

export const sandboxNotificationEntity = defineEntity<SandboxNotification>()({
  entity: 'SandboxNotification',
  version: 1,
  owner: OWNER,
  key: notificationKey,
  keyArgs: ['scope', 'ntf_id'],
  patterns: {
    byId: { kind: 'get', summary: 'Sandbox notification to deliver', key: notificationKey, args: ['scope', 'ntf_id'], consistent: true },
    byIdBefore: {
      kind: 'get',
      summary: 'Sandbox notification written before write shards (moved when read, so its delivery goes on)',
      key: notificationKeyBefore,
      args: ['scope', 'ntf_id'],
      consistent: true,
    },
  },
  notes: 'TTL 30 days',
});

/** A card-update session: scope-free like the checkout, its id is the secret of the page's address. */
export const sandboxCardUpdateEntity = defineEntity<SandboxCardUpdate>()({
  entity: 'SandboxCardUpdate',
  version: 1,
  owner: OWNER,
  key: cardUpdateKey,
  keyArgs: ['cu_id'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Sandbox card-update session by id (card-update page)',
      key: cardUpdateKey,
      args: ['cu_id'],
      consistent: true,
      notes: 'used once, conditioned on status = open',
    },
  },
  notes: 'TTL a day after it expires',
});
