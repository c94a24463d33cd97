import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { activeTracing } from '../platform/observability';

const clients = new Map<string, DynamoDBDocumentClient>();

/** One document client per endpoint, created lazily and reused across invocations. */
export function documentClient(options: { region: string; endpoint?: string }): DynamoDBDocumentClient {
  const cacheKey = `${options.region}|${options.endpoint ?? ''}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const base = new DynamoDBClient({
      region: options.region,
      endpoint: options.endpoint,
      // DynamoDB Local accepts any credentials; real AWS uses the function's role.
      ...(options.endpoint ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
      maxAttempts: 5,
      // A request that hangs must fail and be retried, never block a request or a settle forever.
      // DYNAMODB_REQUEST_TIMEOUT_MS: benches on a shared, overloaded machine (DynamoDB Local answering slowly).
      // DynamoDB Local (an endpoint) on a saturated machine can take seconds to accept a connection;
      // a refused one still fails at once.
      requestHandler: new NodeHttpHandler({
        connectionTimeout: options.endpoint ? 10_000 : 3000,
        requestTimeout: Number(process.env.DYNAMODB_REQUEST_TIMEOUT_MS ?? 10_000),
        throwOnRequestTimeout: true,
      }),
    });
    // The SDK's logger middleware filters every command's input and output for its log (walking each
    // returned item) even with no logger configured, whose default has an `info` that drops it:
    // 7% of a newsletter send's CPU. Nothing here logs through the SDK's logger, so it goes.
    base.middlewareStack.remove('loggerMiddleware');
    activeTracing()?.captureClient(base);
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
    clients.set(cacheKey, client);
  }
  return client;
}
