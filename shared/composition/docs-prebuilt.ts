import { gunzipSync } from 'node:zlib';
import { docsOperations } from '../docs/operations';
import type { AnyOperation } from '../platform/operation';

/** Where the base URL goes in a prebuilt contract; replaced per request (its `servers` entry). */
export const BASE_URL_PLACEHOLDER = 'https://base-url.invalid';

/**
 * The deployed docs function: the contract was built at synth time from every manifest
 * (function-entries.ts) and travels gzipped in the bundle (~32 KiB for ~440 KiB of JSON), so the
 * function carries neither the capabilities nor the zod-to-OpenAPI machinery. Only `servers`
 * depends on the request; the document is otherwise what the local runtime builds.
 */
export function prebuiltDocsGroup(gzippedContract: string): AnyOperation[] {
  let contract: Record<string, unknown> | undefined;
  return docsOperations((baseUrl) => {
    contract ??= JSON.parse(gunzipSync(Buffer.from(gzippedContract, 'base64')).toString('utf8')) as Record<string, unknown>;
    return { ...contract, servers: [{ url: baseUrl }] };
  });
}
