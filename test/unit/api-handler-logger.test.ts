import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../shared/platform/context';
import { createApiHandler, type ApiEvent } from '../../shared/platform/http/api-handler';
import { logger } from '../../shared/platform/logger';
import type { AnyOperation } from '../../shared/platform/operation';

// The API handler sets the logger's invocation context and resets its per-request keys itself
// (issue 43: Powertools' middleware cost a read ~40 µs); what the logs carry must not change.
const context = (requestId: string) =>
  ({
    functionName: 'api-catalog',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:1:function:api-catalog',
    memoryLimitInMB: '512',
    awsRequestId: requestId,
  }) as Context;

const event = (requestId: string): ApiEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /probe',
    rawPath: '/probe',
    rawQueryString: '',
    headers: { host: 'api.example.com' },
    requestContext: { http: { method: 'GET', path: '/probe', sourceIp: '203.0.113.9' }, requestId, domainName: 'api.example.com' },
    isBase64Encoded: false,
  }) as unknown as ApiEvent;

describe('API handler logging', () => {
  afterEach(() => vi.restoreAllMocks());

  it('logs with the invocation context and forgets per-request keys after each request', async () => {
    const lines: Record<string, unknown>[] = [];
    // Powertools writes each line through the console it was made with (vitest's in tests).
    // (one JSON document per call, pretty-printed when POWERTOOLS_DEV is set).
    const capture = (...args: unknown[]) => {
      const text = String(args[0]);
      if (text.trimStart().startsWith('{')) lines.push(JSON.parse(text));
    };
    vi.spyOn(console, 'error').mockImplementation(capture);
    vi.spyOn(console, 'log').mockImplementation(capture);
    const probe: AnyOperation = {
      operationId: 'probe',
      summary: 'probe',
      method: 'GET',
      path: '/probe',
      auth: 'public',
      handler: async () => {
        logger.error('probe ran');
        logger.appendKeys({ shopper: 'first-request-only' });
        return { ok: true };
      },
    } as AnyOperation;
    const handler = createApiHandler([probe], { deps: () => ({ config: { STAGE: 'test', PUBLIC_BASE_URL: 'https://api.example.com' } }) as unknown as Deps });
    const first = await handler(event('r1'), context('req-1'));
    const second = await handler(event('r2'), context('req-2'));
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    const logged = lines.filter((line) => line.message === 'probe ran');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ function_request_id: 'req-1', function_name: 'api-catalog' });
    expect(logged[1]).toMatchObject({ function_request_id: 'req-2', function_name: 'api-catalog' });
    expect(logged[1]).not.toHaveProperty('shopper');
  });
});
