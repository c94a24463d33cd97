import type { BusPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The bus port, its adapter imported on the first call (port.ts). */
export const deferredBusPort = (env: AwsPortEnv): BusPort => deferred(['publish'], async () => (await import('../bus')).awsBusPort(env));
