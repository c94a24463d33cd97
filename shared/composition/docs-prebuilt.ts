import { docsOperations } from '../docs/operations';
import type { AnyOperation } from '../platform/operation';
import { unpackJson } from './packed-json';

/** Where the base URL goes in a prebuilt contract; replaced per request (its `servers` entry). */
export const BASE_URL_PLACEHOLDER = 'https://base-url.invalid';

/**
 * The deployed docs function: the contract was built at synth time from every manifest
 * (function-entries.ts) and travels packed in the bundle (packed-json.ts: ~24 KB of Brotli for ~440 KiB of JSON), so the
 * function carries neither the capabilities nor the zod-to-OpenAPI machinery. Only `servers`
 * depends on the request; the document is otherwise what the local runtime builds.
 */
export function prebuiltDocsGroup(packedContract: string): AnyOperation[] {
  let contract: Record<string, unknown> | undefined;
  return docsOperations((baseUrl) => {
    contract ??= unpackJson<Record<string, unknown>>(packedContract);
    return { ...contract, servers: [{ url: baseUrl }] };
  });
}
