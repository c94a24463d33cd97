import type { EncryptionPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The encryption port, its adapter imported on the first call (port.ts). */
export const deferredEncryptionPort = (env: AwsPortEnv): EncryptionPort =>
  deferred(['encrypt', 'decrypt'], async () => (await import('../encryption')).awsEncryptionPort(env));
