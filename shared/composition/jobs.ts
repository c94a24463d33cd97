import type { Deps } from '../platform/context';
import type { Job } from '../platform/ports';
import type { App } from './assemble';

/** Runs a fired job with the handler its capability declared for the job's type. */
export async function runJob(app: App, job: Job, deps: Deps): Promise<void> {
  const handler = app.jobs[job.type];
  if (!handler) throw new Error(`No handler for job type ${job.type}`);
  await handler(job, deps);
}
