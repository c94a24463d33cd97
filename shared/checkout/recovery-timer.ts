import type { Deps } from '../platform/context';
import { logger } from '../platform/logger';
import type { Scope } from '../store/keys';
import { DEFAULT_RECOVERY, type CheckoutSessionRecord, type RecoverySettingsRecord } from './records';
import { recoveryDueAt } from './recovery-rules';
import { loadRecoverySettings } from './repository';

/**
 * The one timer of an abandoned-checkout candidate: set (through the scheduler port) when a
 * session of a seller with recovery on learns its buyer's address, removed when it is paid. Apart
 * from recovery.ts so that opening a session does not bundle the mail and its catalogues.
 */

export const JOB_CHECKOUT_RECOVERY = 'checkout.recovery';
export const recoveryTimerName = (scope: Scope, sessionId: string) => `checkout-recovery-${scope.accountId}-${scope.mode}-${sessionId}`;

export async function recoverySettings(deps: Pick<Deps, 'store'>, scope: Scope): Promise<RecoverySettingsRecord> {
  return { ...DEFAULT_RECOVERY, ...(await loadRecoverySettings(deps.store, scope)) };
}

/** Schedules the session's timer when the seller has recovery on; answers when it falls due (null: off). */
export async function scheduleRecovery(
  deps: Pick<Deps, 'store' | 'clock' | 'ports'>,
  scope: Scope,
  session: Pick<CheckoutSessionRecord, '_id' | 'createdAt'>,
): Promise<string | null> {
  const settings = await recoverySettings(deps, scope);
  if (!settings.enabled) return null;
  const due = recoveryDueAt(session.createdAt, settings.delayMinutes, deps.clock.now());
  await deps.ports.scheduler.schedule(recoveryTimerName(scope, session._id), due, { type: JOB_CHECKOUT_RECOVERY, scope, payload: { sessionId: session._id } });
  return due.toISOString();
}

/**
 * Removes a paid session's timer. Called after the purchase is committed, so a failure here is
 * logged and left: the timer then fires, finds the session paid and sends nothing.
 */
export async function cancelRecovery(deps: Pick<Deps, 'ports'>, scope: Scope, session: Pick<CheckoutSessionRecord, '_id' | 'recoveryDueAt'>): Promise<void> {
  if (!session.recoveryDueAt) return;
  try {
    await deps.ports.scheduler.cancel(recoveryTimerName(scope, session._id));
  } catch (error) {
    logger.error('could not cancel the abandoned-checkout timer of a paid session; it will fire and send nothing', {
      sessionId: session._id,
      error: error as Error,
    });
  }
}

/** Where a recovery mail's link points (GET /checkout/recover/{token}). */
export const RECOVERY_PATH = '/checkout/recover';
