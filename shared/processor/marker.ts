import { toItem } from '../store/items';
import { keys } from '../store/keys';
import { ConditionFailed, type Store, type TransactOp } from '../store/store';

const CONSUMER = 'processor-ingress';
const RETENTION_SECONDS = 30 * 24 * 3600;

/**
 * The processed marker of a notification. It goes in the same transaction as the state change the
 * notification causes, with attribute_not_exists: a second delivery, or a racing one, fails the
 * whole transaction and so changes nothing.
 */
export const processedMarker = (notificationId: string, nowSeconds: number): TransactOp => ({
  put: toItem(keys.processed(CONSUMER, notificationId), 'ProcessedNotification', { notificationId, processedAt: nowSeconds }, { expiresAt: nowSeconds + RETENTION_SECONDS }),
  condition: 'attribute_not_exists(PK)',
});

export async function alreadyProcessed(store: Store, notificationId: string): Promise<boolean> {
  return Boolean(await store.get(keys.processed(CONSUMER, notificationId), { consistent: true }));
}

/** A transaction guarded by the notification's marker: a duplicate is a quiet no-op (false). */
export async function transactOnce(deps: { store: Store }, notificationId: string, ops: TransactOp[]): Promise<boolean> {
  try {
    await deps.store.transact(ops);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed && (await alreadyProcessed(deps.store, notificationId))) return false;
    throw error;
  }
}
