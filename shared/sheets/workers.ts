import type { BusConsumer, JobHandler } from '../platform/capability';
import { runBackfill, runBatch, runRequeue } from './batch';
import { BACKFILL_JOB, BATCH_JOB, REQUEUE_JOB } from './jobs-names';
import { onCommittedEvent } from './service';

/** Bus rule: committed sales, first purchases, refunds and disputes become pending rows. */
export const sheetRowsConsumer: BusConsumer = {
  name: 'sheets-rows',
  needs: ['table', 'scheduler'],
  eventTypes: ['order.completed', 'customer.created', 'order.refunded', 'order.disputed'],
  handle: (event, deps) => onCommittedEvent(deps, event),
};

const scoped =
  (run: (job: Parameters<JobHandler>[0], deps: Parameters<JobHandler>[1]) => Promise<void>): JobHandler =>
  async (job, deps) => {
    if (job.scope) await run(job, deps);
  };

export const SHEETS_JOB_HANDLERS: Record<string, JobHandler> = {
  [BATCH_JOB]: scoped((job, deps) => runBatch(deps, job.scope!)),
  [BACKFILL_JOB]: scoped((job, deps) => runBackfill(deps, job.scope!, String(job.payload.afterId ?? ''))),
  [REQUEUE_JOB]: scoped((job, deps) => runRequeue(deps, job.scope!)),
};
