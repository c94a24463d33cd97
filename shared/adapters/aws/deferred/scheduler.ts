import type { SchedulerPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The scheduler port, its adapter imported on the first call (port.ts). */
export const deferredSchedulerPort = (env: AwsPortEnv): SchedulerPort =>
  deferred(['schedule', 'cancel'], async () => (await import('../scheduler')).awsSchedulerPort(env));
