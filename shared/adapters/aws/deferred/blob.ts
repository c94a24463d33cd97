import type { BlobMultipart, BlobPort } from '../../../platform/ports';
import type { AwsPortEnv } from '../env';
import { deferred } from './port';

/** The blob port, its adapter imported on the first call (port.ts). */
export function deferredBlobPort(env: AwsPortEnv): BlobPort {
  let blob: Promise<BlobPort> | undefined;
  const once = () => (blob ??= import('../blob').then((module) => module.awsBlobPort(env)));
  return {
    ...deferred<Omit<BlobPort, 'multipart'>>(['put', 'putStream', 'get', 'delete', 'signedGetUrl'], once),
    multipart: deferred<BlobMultipart>(['create', 'partUrls', 'complete', 'abort'], async () => (await once()).multipart),
  };
}
