import type { JobHandler } from '../platform/capability';
import { JOB_FINAL_ACTION, runFinalAction } from './recovery';

/** The recovery case's final-action timer (the manifest's `jobs`), apart from the operations its function does not run. */
export const retentionJobs: Record<string, JobHandler> = {
  [JOB_FINAL_ACTION]: async (job, deps) => {
    if (job.scope) await runFinalAction(deps, job.scope, String(job.payload.caseId));
  },
};
