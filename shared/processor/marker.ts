import { isConditionFailed, KEY_IS_FREE } from '../store/conditional';
import type { Store, TransactOp } from '../store/store';
import { processedNotificationEntity } from './entities';

const RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * The processed marker of a notification. It goes in the same transaction as the state change the
 * notification causes, with attribute_not_exists: a second delivery, or a racing one, fails the
 * whole transaction and so changes nothing.
 */
export const processedMarker = (notificationId: string, nowSeconds: number): TransactOp => ({
  put: processedNotificationEntity.item(
    processedNotificationEntity.declaration.key(notificationId),
    { notificationId, processedAt: nowSeconds },
    { expiresAt: nowSeconds + RETENTION_SECONDS },
  ),
  condition: KEY_IS_FREE,
});

export async function alreadyProcessed(store: Store, notificationId: string): Promise<boolean> {
  return Boolean(await processedNotificationEntity.get(store, 'byNotification', notificationId));
}

/** A transaction guarded by the notification's marker: a duplicate is a quiet no-op (false). */
export async function transactOnce(deps: { store: Store }, notificationId: string, ops: TransactOp[]): Promise<boolean> {
  try {
    await deps.store.transact(ops);
    return true;
  } catch (error) {
    if (isConditionFailed(error) && (await alreadyProcessed(deps.store, notificationId))) return false;
    throw error;
  }
}
