import type { SecretsPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The secrets port, its adapter imported on the first call (port.ts). */
export const deferredSecretsPort = (env: AwsPortEnv): SecretsPort => deferred(['get'], async () => (await import('../secrets')).awsSecretsPort(env));
