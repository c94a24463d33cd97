import type { JobHandler } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { Job } from '../platform/ports';

/** The jobs queue is the kernel's: the scheduler fires into it and it dispatches by job type. */
export const JOBS_QUEUE = 'jobs';

/** Runs a fired job with the handler its capability declared for the job's type. */
export async function runJob(app: { jobs: Record<string, JobHandler> }, job: Job, deps: Deps): Promise<void> {
  const handler = app.jobs[job.type];
  if (!handler) throw new Error(`No handler for job type ${job.type}`);
  await handler(job, deps);
}
