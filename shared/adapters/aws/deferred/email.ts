import type { EmailPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The email port, its adapter imported on the first call (port.ts). */
export const deferredEmailPort = (env: AwsPortEnv): EmailPort =>
  deferred(['send', 'sendBulk', 'senderIdentity'], async () => (await import('../email')).awsEmailPort(env));
