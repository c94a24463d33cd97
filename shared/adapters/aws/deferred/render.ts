import type { RenderPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The render port, its adapter imported on the first call (port.ts). */
export const deferredRenderPort = (env: AwsPortEnv): RenderPort =>
  deferred(['mailTemplate', 'sanitizePost', 'invoicePdf'], async () => (await import('../render')).awsRenderPort(env));
