import type { Deps } from '../../platform/context';
import { logger } from '../../platform/logger';
import type { Scope } from '../../store/keys';
import type { SandboxNotification } from './records';
import { getNotification, notificationKey } from './repository';
import { SANDBOX_SIGNING_SECRET, SIGNATURE_HEADER, sign } from './signing';

/** Serialises a notification exactly once; these bytes are signed and sent. */
export const notificationBody = (n: SandboxNotification) =>
  JSON.stringify({ id: n.id, type: n.type, created: n.created, accountId: n.accountId, mode: n.mode, data: n.data });

/**
 * Posts one recorded notification to the ingress. Anything but a 2xx throws, so the jobs queue
 * retries it (and, in AWS, parks it in the dead-letter queue with an alarm): a notification is
 * never dropped. The ingress is idempotent on the notification id, so a retry after a lost answer
 * changes nothing.
 */
export async function deliverNotification(deps: Deps, scope: Scope, notificationId: string): Promise<void> {
  const key = notificationKey(scope, notificationId);
  const notification = await getNotification(deps.store, scope, notificationId);
  if (!notification || notification.deliveredAt || !notification.notifyUrl) return;
  const body = notificationBody(notification);
  const secret = await deps.ports.secrets.get(SANDBOX_SIGNING_SECRET);
  const timestamp = Math.floor(deps.clock.nowMs() / 1000);
  let status = 0;
  try {
    const response = await fetch(notification.notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: sign(secret, timestamp, body) },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    status = response.status;
    await response.arrayBuffer().catch(() => undefined);
  } finally {
    await deps.store.update(key, {
      set: status >= 200 && status < 300 ? { deliveredAt: deps.clock.now().toISOString(), lastStatus: status } : { lastStatus: status },
      add: { attempts: 1 },
    });
  }
  if (status < 200 || status >= 300) {
    logger.warn('processor notification not accepted; the queue retries it', { notificationId, status });
    throw new Error(`processor ingress answered ${status} to notification ${notificationId}`);
  }
}
