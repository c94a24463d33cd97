import type { JobHandler, QueueHandler } from '../platform/capability';
import { listAccounts } from '../platform/accounts';
import { recountSegments } from './counting';
import { NIGHTLY_JOB, refreshStep, startNightlyRefresh, type RefreshStep } from './service';

/** The nightly schedule: starts one page-by-page refresh per segment that has a smart tag. */
export const nightlyRefreshJob: JobHandler = async (_job, deps) => {
  // Not a request path: the account list is walked once a night.
  await startNightlyRefresh(deps, await listAccounts(deps.store));
};

/** The segments' timers (the manifest's `jobs`). */
export const segmentJobs: Record<string, JobHandler> = { [NIGHTLY_JOB]: nightlyRefreshJob };

/** One page of one segment's refresh; the step queues the next one. */
export const refreshStepHandler: QueueHandler = async (message, deps) => {
  const step = message as unknown as RefreshStep;
  const segments = step.facts || step.segmentId || step.takeBack ? await refreshStep(deps, step) : undefined;
  if (step.counts && segments !== 0) await recountSegments(deps, step.scope);
};
