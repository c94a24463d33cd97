import { inject } from 'vitest';

/**
 * The DynamoDB Local of this test file: worker p (VITEST_POOL_ID, 1-based) owns the instances
 * p-1, p-1+W, p-1+2W, … of W workers, so two files running at once never share one, and its
 * files take turns over them by file run (VITEST_WORKER_ID counts file runs), which spreads the
 * tables the suite creates (see global-setup.ts). Stable within a file.
 */
export function testDynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints');
  const workers = Math.max(1, inject('testWorkers') ?? 1);
  const pool = Math.max(1, Number(process.env.VITEST_POOL_ID ?? 1)) - 1;
  const owned = endpoints.filter((_, index) => index % workers === pool % workers);
  if (!owned.length) return endpoints[pool % endpoints.length]!;
  const run = Math.max(0, Number(process.env.VITEST_WORKER_ID ?? 0));
  return owned[Math.floor(run / workers) % owned.length]!;
}
