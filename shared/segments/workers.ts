import type { JobHandler, QueueHandler } from '../platform/capability';
import { listAccounts } from '../platform/accounts';
import { refreshStep, startNightlyRefresh, type RefreshStep } from './service';

/** The nightly schedule: starts one page-by-page refresh per segment that has a smart tag. */
export const nightlyRefreshJob: JobHandler = async (_job, deps) => {
  // Not a request path: the account list is walked once a night.
  await startNightlyRefresh(deps, await listAccounts(deps.store));
};

/** One page of one segment's refresh; the step queues the next one. */
export const refreshStepHandler: QueueHandler = async (message, deps) => refreshStep(deps, message as unknown as RefreshStep);
