import type { JobHandler } from '../platform/capability';
import { JOB_TRIAL_WILL_END, JOB_UPCOMING, trialWillEndJob, upcomingJob } from './timers';

export const SUBSCRIPTION_JOB_HANDLERS: Record<string, JobHandler> = {
  [JOB_UPCOMING]: upcomingJob,
  [JOB_TRIAL_WILL_END]: trialWillEndJob,
};
