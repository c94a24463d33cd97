import type { JobHandler } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { Job } from '../platform/ports';

/** The jobs queue is the kernel's: the scheduler fires into it and it dispatches by job type. */
export { JOBS_QUEUE } from '../platform/ports';

/**
 * In AWS each job group (shared/composition/assemble.ts `jobGroups`) has its own jobs queue and
 * function. The queues are named, so a function finds a group's queue from the group's name and
 * one prefix (JOBS_QUEUE_URL_PREFIX, JOBS_QUEUE_ARN_PREFIX) rather than a variable per queue.
 */
export const jobsQueueNamePrefix = (stage: string) => `creator-commerce-${stage}-jobs-`;
export const jobsQueueName = (stage: string, group: string) => `${jobsQueueNamePrefix(stage)}${group}`;

/** Runs a fired job with the handler its capability declared for the job's type. */
export async function runJob(app: { jobs: Record<string, JobHandler> }, job: Job, deps: Deps): Promise<void> {
  const handler = app.jobs[job.type];
  if (!handler) throw new Error(`No handler for job type ${job.type}`);
  await handler(job, deps);
}
