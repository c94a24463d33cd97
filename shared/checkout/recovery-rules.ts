import type { CheckoutSessionRecord, RecoverySettingsRecord } from './records';

/**
 * Pure rules of abandoned-checkout recovery: when a session's timer falls due, whether the mail
 * goes out when it fires, and whether the mail's link reopens the same session or a fresh one.
 */

export const MIN_DELAY_MINUTES = 30;
export const MAX_DELAY_MINUTES = 2880;
/** How long the mail's link works. */
export const LINK_VALID_MS = 30 * 24 * 3600 * 1000;
/**
 * Sessions here never close on their own; like a processor's hosted session (Stripe's last 24
 * hours), one older than this is not reopened: the link opens a fresh session at today's price.
 */
export const SESSION_REUSE_MS = 24 * 3600 * 1000;

/**
 * `delayMinutes` after the session opened; when the address is learnt only after that (typed on
 * the page later), `delayMinutes` after now, so a buyer who is still on the page is not mailed.
 */
export function recoveryDueAt(openedAt: string, delayMinutes: number, now: Date): Date {
  const delayMs = delayMinutes * 60_000;
  const fromOpen = Date.parse(openedAt) + delayMs;
  return new Date(fromOpen > now.getTime() ? fromOpen : now.getTime() + delayMs);
}

export type RecoveryDecision = 'mail' | 'paid' | 'no-address' | 'recovery-off' | 'bought-elsewhere' | 'handled-already' | 'opened-from-recovery';

/** What the timer does when it fires: mail, or the reason it does not. */
export function recoveryDecision(
  session: Pick<CheckoutSessionRecord, 'status' | 'customerEmail' | 'abandonedAt' | 'recoveredFrom'>,
  settings: Pick<RecoverySettingsRecord, 'enabled'>,
  boughtProduct: boolean,
): RecoveryDecision {
  if (session.status !== 'open') return 'paid';
  if (session.abandonedAt) return 'handled-already';
  if (!settings.enabled) return 'recovery-off';
  if (!session.customerEmail) return 'no-address';
  // One mail per abandoned checkout: the session the link opened is not chased again.
  if (session.recoveredFrom) return 'opened-from-recovery';
  if (boughtProduct) return 'bought-elsewhere';
  return 'mail';
}

/**
 * The link reopens the abandoned session while it is open, recent, and already at the price the
 * mail promised (no code, or that code applied); otherwise it opens a fresh session.
 */
export function reopensSameSession(session: Pick<CheckoutSessionRecord, 'status' | 'createdAt' | 'discountCode'>, code: string | null, now: Date): boolean {
  if (session.status !== 'open') return false;
  if (now.getTime() - Date.parse(session.createdAt) >= SESSION_REUSE_MS) return false;
  return !code || (session.discountCode ?? '').toUpperCase() === code.toUpperCase();
}
