import { inject } from 'vitest';

/** The DynamoDB Local of this test worker: workers never share one (see global-setup.ts). */
export function testDynamoEndpoint(): string {
  const endpoints = inject('dynamoEndpoints');
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return endpoints[(Math.max(1, worker) - 1) % endpoints.length]!;
}
