import type { Deps } from '../../platform/context';
import { prefixedId } from '../../platform/ids';
import { logger } from '../../platform/logger';
import type { LiveMembership, PaymentMethod, RefusableOperation } from '../../processor/port';
import { ProcessorError } from '../../processor/port';
import { putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import { JOB_DELIVER, JOB_RENEW, type SandboxMembership, type SandboxNotification, type SandboxPayment } from './records';
import * as repo from './repository';

/**
 * What every part of the sandbox processor shares (sandbox.ts holds the port; checkout-flow.ts,
 * renewals.ts, payments.ts and card-sessions.ts its sections): the ports, the clock, the control
 * API's one-shot refusals, and the helpers that load and save memberships and record and deliver
 * notifications.
 */
export interface SandboxCore {
  deps: Deps;
  now(): Date;
  /** True (once) when the control API asked that the next call of this kind fail. */
  refused(operation: RefusableOperation): boolean;
}

export const renewTimer = (membershipId: string) => `sbx-renew-${membershipId}`;

/** A succeeded sandbox payment: a first charge, a renewal, a saved-card or a usage charge. */
export const succeededPayment = (p: {
  amountCents: number;
  currency: string;
  membershipId: string | null;
  paymentMethod: PaymentMethod | null;
  notifyUrl: string | null;
  at: string;
}): SandboxPayment => ({
  id: prefixedId('pay'),
  amountCents: p.amountCents,
  refundedCents: 0,
  currency: p.currency,
  status: 'succeeded',
  membershipId: p.membershipId,
  paymentMethod: p.paymentMethod,
  notifyUrl: p.notifyUrl,
  createdAt: p.at,
});

// ---- memberships ----

export async function loadMembership(core: SandboxCore, scope: Scope, id: string): Promise<SandboxMembership> {
  const record = /^mem_[0-9A-Za-z]{24}$/.test(id) ? await repo.getMembership(core.deps.store, scope, id) : undefined;
  if (!record) throw new ProcessorError('No such membership', 'not_found');
  return record;
}

export function liveMembership(m: SandboxMembership): LiveMembership {
  return {
    id: m.id,
    // Memberships from before the sandbox named its subscriptions get a stable one from their id.
    subscriptionId: m.subscriptionId ?? `sub_${m.id.slice('mem_'.length)}`,
    status: m.status,
    paused: m.paused,
    cancelAtPeriodEnd: m.cancelAtPeriodEnd,
    currentPeriodStart: m.currentPeriodStart,
    currentPeriodEnd: m.currentPeriodEnd,
    trialEnd: m.trialEnd,
    amountCents: m.amountCents,
    currency: m.currency,
    interval: m.interval,
    retries: m.failures,
    paymentMethod: m.paymentMethod as PaymentMethod,
  };
}

export async function saveMembership(core: SandboxCore, scope: Scope, m: SandboxMembership, extra: TransactOp[] = []) {
  await core.deps.store.transact([{ put: repo.membershipItem(scope, m) }, ...extra]);
}

export async function scheduleRenewal(core: SandboxCore, scope: Scope, membershipId: string, at: Date) {
  await core.deps.ports.scheduler.schedule(renewTimer(membershipId), at, { type: JOB_RENEW, scope, payload: { membershipId } });
}

export async function cancelRenewal(core: SandboxCore, membershipId: string) {
  await core.deps.ports.scheduler.cancel(renewTimer(membershipId));
}

// ---- notifications ----

export function notification(core: SandboxCore, scope: Scope, type: string, notifyUrl: string, data: Record<string, unknown>): SandboxNotification {
  return {
    id: prefixedId('ntf'),
    type,
    accountId: scope.accountId,
    mode: scope.mode,
    created: Math.floor(core.deps.clock.nowMs() / 1000),
    data,
    notifyUrl,
    attempts: 0,
  };
}

export function notificationPut(scope: Scope, n: SandboxNotification): TransactOp {
  return putNew(repo.notificationItem(scope, n));
}

/**
 * The notification is already recorded; a failed enqueue falls back to a scheduler timer so the
 * notification is still delivered.
 */
export async function enqueue(core: SandboxCore, scope: Scope, notificationId: string) {
  const job = { type: JOB_DELIVER, scope, payload: { notificationId } };
  try {
    await core.deps.ports.queue.send('jobs', job);
  } catch (error) {
    logger.warn('sandbox notification not queued; a timer delivers it', { notificationId, error: error as Error });
    await core.deps.ports.scheduler.schedule(`sbx-deliver-${notificationId}`, core.now(), job);
  }
}
