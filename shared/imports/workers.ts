import type { JobHandler, QueueHandler } from '../platform/capability';
import type { Scope } from '../store/keys';
import { runBatch, sweep, SWEEP_JOB } from './service';

/** One batch of a run per message; the next batch is a new message, so a crash loses at most a lease. */
export const runBatchHandler: QueueHandler = async (message, deps) => runBatch(deps, message.scope as Scope, String(message.importId));

export const IMPORTS_JOB_HANDLERS: Record<string, JobHandler> = {
  [SWEEP_JOB]: async (job, deps) => {
    if (job.scope) await sweep(deps, job.scope, String(job.payload.importId));
  },
};
