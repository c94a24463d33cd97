import type { QueuePort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The queue port, its adapter imported on the first call (port.ts). */
export const deferredQueuePort = (env: AwsPortEnv): QueuePort => deferred(['send'], async () => (await import('../queue')).awsQueuePort(env));
