import type { JobHandler } from '../platform/capability';
import { closePeriod, retryCharge } from './period-close';
import { JOB_CLOSE_PERIOD, JOB_RETRY_CHARGE } from './service';

/** Period close and charge retry timers (the manifest's `jobs`), apart from the operations their function does not run. */
export const usageJobs: Record<string, JobHandler> = {
  [JOB_CLOSE_PERIOD]: async (job, deps) => {
    if (job.scope) await closePeriod(deps, job.scope, job.payload as { subscriberId: string; periodStart: string; periodEnd: string });
  },
  [JOB_RETRY_CHARGE]: async (job, deps) => {
    if (job.scope) await retryCharge(deps, job.scope, job.payload as { subscriberId: string; periodStart: string });
  },
};
