import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import { nextBatchAt } from './backoff';
import { BATCH_JOB, batchTimer } from './jobs-names';
import type { ConnectionRecord } from './records';

// ---- the batch timer: exists only while there is work ----
// Its own module (scheduler only), so the erasure's sheets part can arm it without the spreadsheet port.

export async function armBatch(deps: Pick<Deps, 'clock' | 'ports'>, scope: Scope, connection: Pick<ConnectionRecord, 'nextAttemptAt'>): Promise<void> {
  // A batch waiting out its back-off runs at its retry time; otherwise at the next 2-minute mark.
  const retryAt = connection.nextAttemptAt ? Date.parse(connection.nextAttemptAt) : 0;
  const at = retryAt > deps.clock.nowMs() ? retryAt : nextBatchAt(deps.clock.nowMs());
  await deps.ports.scheduler.schedule(batchTimer(scope), new Date(at), { type: BATCH_JOB, scope, payload: {} });
}
