import { ProcessorError, type LiveMembership, type MembershipAdjustment, type RecoveryPolicy } from '../../processor/port';
import { putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import {
  cancelRenewal,
  enqueue,
  liveMembership,
  loadMembership,
  notification,
  notificationPut,
  saveMembership,
  scheduleRenewal,
  succeededPayment,
  type SandboxCore,
} from './core';
import { addDays, addInterval, RETRY_DELAYS_DAYS } from './periods';
import type { SandboxMembership, SandboxNotification } from './records';
import * as repo from './repository';

// ---- retention: recovery policy and changes of coming renewals ----

export async function setRecoveryPolicy(core: SandboxCore, scope: Scope, policy: RecoveryPolicy | null): Promise<void> {
  await core.deps.store.put(repo.settingsItem(scope, { recovery: policy ? { retryDays: [...policy.retryDays] } : null }));
}

export async function adjustMembership(core: SandboxCore, scope: Scope, membershipId: string, change: MembershipAdjustment): Promise<LiveMembership> {
  const m = await loadMembership(core, scope, membershipId);
  if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
  let reschedule = false;
  if (change.nextPayments) m.nextPayments = { amountCents: change.nextPayments.amountCents, remaining: change.nextPayments.payments };
  if (change.switchAtNextRenewal) m.switchAtRenewal = { ...change.switchAtNextRenewal };
  if (change.skipPeriods) {
    if (m.status === 'past_due' || m.paused) throw new ProcessorError('Only a membership in good standing can skip renewals', 'invalid');
    let end = new Date(m.currentPeriodEnd);
    for (let i = 0; i < change.skipPeriods; i++) end = addInterval(end, m.interval);
    m.currentPeriodEnd = end.toISOString();
    reschedule = true;
  }
  if (change.voidAndPause) {
    if (m.status !== 'past_due') throw new ProcessorError('Only a past-due membership has a renewal to void', 'invalid');
    Object.assign(m, { status: 'active', failures: 0, firstFailureAt: null, paused: true });
  }
  await saveMembership(core, scope, m);
  if (change.voidAndPause) await cancelRenewal(core, m.id);
  if (reschedule) await scheduleRenewal(core, scope, m.id, new Date(m.currentPeriodEnd));
  return liveMembership(m);
}

// ---- renewals ----

/** The scheduler's renewal timer, and the retry timers after a failed charge. */
export async function onRenewalDue(core: SandboxCore, scope: Scope, membershipId: string): Promise<void> {
  let m: SandboxMembership;
  try {
    m = await loadMembership(core, scope, membershipId);
  } catch (error) {
    // A timer of a membership that no longer exists has nothing to renew; store faults pass on.
    if (error instanceof ProcessorError && error.code === 'not_found') return;
    throw error;
  }
  if (m.status === 'canceled' || m.paused) return;
  const now = core.now();
  if (new Date(m.currentPeriodEnd) > now && m.status !== 'past_due') {
    // Fired early (rescheduled membership): wait for the real boundary.
    await scheduleRenewal(core, scope, m.id, new Date(m.currentPeriodEnd));
    return;
  }
  if (m.cancelAtPeriodEnd) {
    m.status = 'canceled';
    const n = notification(core, scope, 'membership.canceled', m.notifyUrl, { membershipId: m.id, reason: 'period_end', canceledAt: now.toISOString() });
    await saveMembership(core, scope, m, [notificationPut(scope, n)]);
    await enqueue(core, scope, n.id);
    return;
  }
  await charge(core, scope, m, false);
}

export async function renewNow(core: SandboxCore, scope: Scope, membershipId: string, outcome: 'succeed' | 'fail'): Promise<void> {
  const m = await loadMembership(core, scope, membershipId);
  if (m.status === 'canceled') throw new ProcessorError('The membership has ended', 'invalid');
  m.declining = outcome === 'fail';
  await cancelRenewal(core, m.id);
  await charge(core, scope, m, true);
}

/**
 * One charge of a membership (a renewal, a retry, the first charge after a trial, or a past-due
 * renewal paid with a new card): paid, the period moves on; declined, the retry schedule (the
 * account's recovery policy, else the sandbox's own) decides the next attempt or the end.
 */
export async function charge(core: SandboxCore, scope: Scope, m: SandboxMembership, forced: boolean): Promise<void> {
  const now = core.now();
  const billingReason = m.status === 'trialing' ? 'initial' : 'renewal';
  const refused = core.refused('charge');
  const ok = !refused && !m.declining && (m.amountCents === 0 || Boolean(m.paymentMethod));
  const ops: TransactOp[] = [];
  let n: SandboxNotification;
  let nextTimer: Date | undefined;
  const recovered = m.status === 'past_due';
  // A switch of interval (yearly switch) starts with a new period, never on a retry of an old one.
  if (ok && !recovered && m.switchAtRenewal) {
    Object.assign(m, { interval: m.switchAtRenewal.interval, amountCents: m.switchAtRenewal.amountCents, switchAtRenewal: null });
  }
  const override = m.nextPayments && m.nextPayments.remaining > 0 ? m.nextPayments : null;
  const amountCents = override ? override.amountCents : m.amountCents;
  if (ok) {
    const start = forced || recovered ? now : new Date(m.currentPeriodEnd);
    const end = addInterval(start, m.interval);
    const payment = succeededPayment({
      amountCents,
      currency: m.currency,
      membershipId: m.id,
      paymentMethod: m.paymentMethod,
      notifyUrl: m.notifyUrl,
      at: now.toISOString(),
    });
    if (override) m.nextPayments = override.remaining > 1 ? { ...override, remaining: override.remaining - 1 } : null;
    Object.assign(m, { status: 'active', failures: 0, firstFailureAt: null, currentPeriodStart: start.toISOString(), currentPeriodEnd: end.toISOString() });
    ops.push(putNew(repo.paymentItem(scope, payment)));
    n = notification(core, scope, 'charge.succeeded', m.notifyUrl, {
      membershipId: m.id,
      billingReason,
      recovered,
      payment: { id: payment.id, amountCents: payment.amountCents, currency: payment.currency, planId: m.planId },
      paymentMethod: m.paymentMethod,
      membership: { status: m.status, currentPeriodStart: m.currentPeriodStart, currentPeriodEnd: m.currentPeriodEnd },
    });
    nextTimer = end;
  } else {
    const failures = m.status === 'past_due' ? m.failures + 1 : 1;
    const firstFailureAt = m.status === 'past_due' && m.firstFailureAt ? new Date(m.firstFailureAt) : now;
    const policy = (await repo.getSettings(core.deps.store, scope))?.recovery;
    let final: boolean;
    let nextRetryAt: Date | null;
    if (policy) {
      // Recovery: retries on fixed days after the first failure; after the last one the
      // membership stays past due and the service applies its final action.
      const day = policy.retryDays[failures - 1];
      final = false;
      nextRetryAt = day === undefined ? null : addDays(firstFailureAt, day);
    } else {
      final = failures > RETRY_DELAYS_DAYS.length;
      nextRetryAt = final ? null : addDays(now, RETRY_DELAYS_DAYS[failures - 1]!);
    }
    Object.assign(m, { status: final ? 'canceled' : 'past_due', failures, firstFailureAt: firstFailureAt.toISOString() });
    n = notification(core, scope, 'charge.failed', m.notifyUrl, {
      membershipId: m.id,
      billingReason,
      attempt: failures,
      final,
      nextRetryAt: nextRetryAt?.toISOString() ?? null,
      failureMessage: m.paymentMethod ? 'Your card was declined.' : 'No payment method on file.',
      declineCode: 'card_declined',
      amountCents,
      currency: m.currency,
      paymentMethod: m.paymentMethod,
    });
    nextTimer = nextRetryAt ?? undefined;
  }
  await saveMembership(core, scope, m, [...ops, notificationPut(scope, n)]);
  if (nextTimer) await scheduleRenewal(core, scope, m.id, nextTimer);
  await enqueue(core, scope, n.id);
}
