import type { Deps } from '../platform/context';
import { badRequest, ApiError } from '../platform/errors';
import type { Locale } from '../platform/i18n/locales';
import { normalizeEmail } from '../sales/records';
import { discountCodeOf } from '../storefront/discounts';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { CheckoutSessionRecord, RecoverySettingsRecord } from './records';
import { reopensSameSession } from './recovery-rules';
import { recoverySettings, scheduleRecovery } from './recovery-timer';
import { getRecoveryLink, getSession, saveRecoverySettings, sessionBuyerNoted, sessionRecovered } from './repository';
import { openCheckoutSession } from './service';

/**
 * Abandoned checkouts: the seller's settings, what a session learns of its buyer on the hosted
 * page, and the mail's link that reopens a payable checkout. The timer's job is recovery-job.ts.
 */

export { RECOVERY_PATH } from './recovery-timer';

export const presentRecovery = (s: RecoverySettingsRecord) => ({
  enabled: s.enabled,
  delayMinutes: s.delayMinutes,
  discountCode: s.discountCode,
  updatedAt: s.updatedAt,
});

export const readRecovery = async (deps: Pick<Deps, 'store'>, scope: Scope) => presentRecovery(await recoverySettings(deps, scope));

/** Replaces the settings. A code must exist in this account and mode (its use is checked per product when the buyer returns). */
export async function updateRecovery(deps: Deps, scope: Scope, input: { enabled: boolean; delayMinutes: number; discountCode?: string | null }) {
  let discountCode: string | null = null;
  if (input.discountCode) {
    try {
      discountCode = await discountCodeOf(deps, scope, input.discountCode);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        throw badRequest(`discountCode: no discount code ${input.discountCode} in this account (create it with POST /discounts first)`, {
          field: 'discountCode',
        });
      throw error;
    }
  }
  const record: RecoverySettingsRecord = { enabled: input.enabled, delayMinutes: input.delayMinutes, discountCode, updatedAt: deps.clock.now().toISOString() };
  await saveRecoverySettings(deps.store, scope, record);
  return presentRecovery(record);
}

/**
 * What the hosted page learnt of its buyer: the address they typed and the language they read
 * the page in (their receipt speaks it). With `recover`, a session of a seller with recovery on
 * gets its timer once its address is known. A paid session is left as it is.
 */
export async function noteCheckoutBuyer(
  deps: Pick<Deps, 'store' | 'clock' | 'ports'>,
  scope: Scope,
  sessionId: string,
  input: { email?: string; locale?: Locale; recover: boolean },
): Promise<void> {
  const session = await getSession(deps.store, scope, sessionId);
  if (!session || session.status !== 'open') return;
  const email = input.email ? normalizeEmail(input.email) : undefined;
  const set: Pick<CheckoutSessionRecord, 'customerEmail' | 'buyerLocale' | 'recoveryDueAt'> = {};
  if (email && email !== session.customerEmail) set.customerEmail = email;
  if (input.locale && input.locale !== session.buyerLocale) set.buyerLocale = input.locale;
  const address = email ?? session.customerEmail;
  if (input.recover && address && !session.recoveryDueAt && !session.recoveredFrom && !session.abandonedAt) {
    const due = await scheduleRecovery(deps, scope, session);
    if (due) set.recoveryDueAt = due;
  }
  if (!Object.keys(set).length) return;
  try {
    await deps.store.transact([sessionBuyerNoted(scope, sessionId, set)]);
  } catch (error) {
    // Paid meanwhile: nothing to note, and a timer set just now finds it paid.
    if (!isConditionFailed(error)) throw error;
  }
}

export type RecoveryOutcome = { kind: 'redirect'; location: string } | { kind: 'gone'; scope?: Scope };

/**
 * The mail's link: the abandoned session again while it is open, recent and at the promised
 * price, or else a fresh session for the same product with the seller's code (without it when
 * the code no longer applies). Either is marked as recovered, so its purchase says so.
 */
export async function followRecoveryLink(deps: Deps, token: string, base: string): Promise<RecoveryOutcome> {
  const link = /^[0-9A-Za-z]{40}$/.test(token) ? await getRecoveryLink(deps.store, token) : undefined;
  if (!link) return { kind: 'gone' };
  const scope: Scope = { accountId: link.accountId, mode: link.mode };
  const now = deps.clock.now();
  if (Date.parse(link.validUntil) <= now.getTime()) return { kind: 'gone', scope };
  const session = await getSession(deps.store, scope, link.sessionId);
  if (!session) return { kind: 'gone', scope };
  const settings = await recoverySettings(deps, scope);
  const code = settings.enabled ? settings.discountCode : null;
  if (reopensSameSession(session, code, now)) {
    try {
      await deps.store.transact([sessionRecovered(scope, session._id, session._id)]);
      return { kind: 'redirect', location: session.url };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // Paid meanwhile: a fresh one below.
    }
  }
  const input = {
    productId: session.productId,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    metadata: session.metadata,
    ...(session.clientReferenceId ? { clientReferenceId: session.clientReferenceId } : {}),
    ...(session.referralCode ? { referralCode: session.referralCode } : {}),
    ...(session.seats ? { quantity: session.seats } : {}),
    ...(session.customerEmail ? { customerEmail: session.customerEmail } : {}),
  };
  const carry = { buyerLocale: session.buyerLocale ?? null, recoveredFrom: session._id };
  try {
    const opened = await openCheckoutSession(deps, scope, base, { ...input, ...(code ? { discountCode: code } : {}) }, carry);
    return { kind: 'redirect', location: opened.url };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    // The code no longer applies (expired, used up, another product): the checkout without it.
    if (code && (error.status === 400 || (error.status === 404 && !String(error.message).startsWith('Product')))) {
      const opened = await openCheckoutSession(deps, scope, base, input, carry);
      return { kind: 'redirect', location: opened.url };
    }
    // The product is gone.
    return { kind: 'gone', scope };
  }
}
