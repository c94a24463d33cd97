import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { completeCheckout } from '../checkout/fulfilment';
import type { Deps } from '../platform/context';
import { badRequest, notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import { onPaymentDisputed, onPaymentRefunded } from '../sales/service';
import { onChargeFailed, onChargeSucceeded, onMembershipCanceled } from '../subscriptions/billing';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import { alreadyProcessed } from './marker';
import type { ProcessorNotification } from './port';
import { processedBeforeUpgrade } from '../platform/markers';
import { PROCESSOR_MARKERS } from './entities';

/** Resolves false when the notification turned out to be applied already (a duplicate). */
type NotificationHandler = (deps: Deps, scope: Scope, notification: ProcessorNotification, baseUrl: string) => Promise<boolean | void>;

/** What each processor notification drives. Unknown types are acknowledged and ignored. */
const HANDLERS: Record<string, NotificationHandler> = {
  'checkout.completed': completeCheckout,
  'charge.succeeded': onChargeSucceeded,
  'charge.failed': onChargeFailed,
  'membership.canceled': onMembershipCanceled,
  'payment.refunded': onPaymentRefunded,
  'payment.disputed': onPaymentDisputed,
};

export async function receiveNotification(
  deps: Deps,
  request: { rawBody: string; headers: Record<string, string>; baseUrl: string },
  notification: ProcessorNotification,
): Promise<{ received: true; duplicate?: boolean; ignored?: boolean }> {
  // The provider checks its own signature scheme and secret (the sandbox: signing.ts beside it).
  const checked = await deps.ports.processor.verifyNotification(request.headers, request.rawBody, Math.floor(deps.clock.nowMs() / 1000));
  if (!checked.ok) throw badRequest(`Invalid signature: ${checked.reason}`, { code: 'INVALID_SIGNATURE' });
  // This route takes the sandbox's notifications only: a scope the sandbox does not serve (live
  // mode in a deployed stack, a scope on Stripe) is none of its business, and answers as if the
  // scope did not exist. Nothing is read or written for it.
  const scope: Scope = { accountId: notification.accountId, mode: notification.mode };
  if ((await deps.ports.processor.providerOf?.(scope)) !== 'sandbox') throw notFound('Sandbox scope');
  return applyNotification(deps, notification, request.baseUrl);
}

/**
 * Applies a notification whose origin the caller has verified (the sandbox's signature above, or a
 * provider's own webhook route), once per notification id.
 */
export async function applyNotification(
  deps: Deps,
  notification: ProcessorNotification,
  requestBaseUrl: string,
): Promise<{ received: true; duplicate?: boolean; ignored?: boolean }> {
  const handler = HANDLERS[notification.type];
  if (!handler) {
    logger.info('ignored processor notification', { type: notification.type, id: notification.id });
    return { received: true, ignored: true };
  }
  if ((await alreadyProcessed(deps.store, notification.id)) || (await processedBeforeUpgrade(deps, PROCESSOR_MARKERS, notification.id, notification.created)))
    return { received: true, duplicate: true };
  const scope: Scope = { accountId: notification.accountId, mode: notification.mode };
  const base = (deps.config.PUBLIC_BASE_URL ?? requestBaseUrl).replace(/\/$/, '');
  try {
    // Distinct notifications about one record (two refunds of a payment) race on its conditional
    // write: the loser runs again on what the winner left, as one at a time would have. So does
    // the loser of a transaction conflict: a handler whose once-guard is its own record's
    // condition (a checkout's session, no marker) then finds the winner's work and says so.
    for (let attempt = 1; ; attempt++) {
      try {
        if ((await handler(deps, scope, notification, base)) === false) return { received: true, duplicate: true };
        break;
      } catch (error) {
        if (!(isConditionFailed(error) || isTransactionConflict(error)) || attempt >= 20) throw error;
        if (await alreadyProcessed(deps.store, notification.id)) return { received: true, duplicate: true };
        await new Promise((r) => setTimeout(r, Math.random() * 20));
      }
    }
  } catch (error) {
    // A racing delivery of the same notification makes DynamoDB cancel one transaction with a
    // conflict; once the winner has committed, the loser is simply a duplicate.
    if (isTransactionConflict(error)) {
      for (let attempt = 0; attempt < 5; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
        if (await alreadyProcessed(deps.store, notification.id)) return { received: true, duplicate: true };
      }
    }
    throw error;
  }
  return { received: true };
}

const isTransactionConflict = (error: unknown) =>
  error instanceof TransactionCanceledException && (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
