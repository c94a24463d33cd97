/**
 * CPU of the API pipeline per read, in process, beside the bare SDK call it wraps:
 * `npx tsx test/bench/pipeline-cpu.ts` starts DynamoDB Local and the runtime, then in alternating
 * turns runs `GET /products/{id}` through the very handler Lambda runs (`handleApiEvent`, no HTTP)
 * and the document client's `GetItem` of the same item, 16 in flight, and prints this process's
 * CPU µs per call of each (process.cpuUsage). The difference is the pipeline's own cost: auth
 * cache, rate limit, routing, validation, the store, rendering. Far less noisy than an HTTP run on
 * a busy machine, because it counts CPU, not time. With a file argument, one more pipeline turn is
 * CPU-profiled into it.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { APP } from '../../shared/app';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime } from '../../shared/local/runtime';
import { handleApiEvent, indexOperations, type ApiEvent } from '../../shared/platform/http/api-handler';
import { keys } from '../../shared/store/keys';

process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
const CALLS = Number(process.env.BENCH_CALLS ?? 4000);
const dynamo = await startDynamoDbLocal();
const runtime = await startLocalRuntime({
  port: 0,
  memory: true,
  dynamoEndpoint: dynamo.endpoint,
  tableName: 'pipeline',
  env: { RATE_LIMIT_PER_MINUTE: '100000000' },
});
const created = await (await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', body: JSON.stringify({ plan: 'volume' }) })).json();
const token = created.testKey as string;
const res = await fetch(`${runtime.url}/products`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Pipeline ebook', price: 12.5 }),
});
const productId = (await res.json())._id as string;
const scope = { accountId: created.accountId as string, mode: 'test' as const };
const key = keys.entity(scope, 'PRODUCT', productId);
const operations = indexOperations(APP.apiOperations);
const event = (): ApiEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /products/{id}',
    rawPath: `/products/${productId}`,
    rawQueryString: '',
    headers: { authorization: `Bearer ${token}`, host: '127.0.0.1', 'user-agent': 'bench' },
    pathParameters: { id: productId },
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: '127.0.0.1',
      domainPrefix: 'local',
      http: { method: 'GET', path: `/products/${productId}`, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: `r${Math.random()}`,
      routeKey: 'GET /products/{id}',
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    isBase64Encoded: false,
  }) as ApiEvent;

const client = runtime.deps.store.client;
// The floor server's client: the SDK's defaults (no timeouts, retries or handler of ours).
const plain = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
  { marshallOptions: { removeUndefinedValues: true } },
);
const cases: Record<string, () => Promise<unknown>> = {
  pipeline: async () => {
    const out = await handleApiEvent(operations, runtime.deps, event());
    if (out.statusCode !== 200) throw new Error(`status ${out.statusCode}: ${out.body}`);
  },
  getItem: async () => JSON.stringify((await client.send(new GetCommand({ TableName: runtime.tableName, Key: key }))).Item),
  floorClient: async () => JSON.stringify((await plain.send(new GetCommand({ TableName: runtime.tableName, Key: key }))).Item),
};

async function turn(fn: () => Promise<unknown>) {
  let left = CALLS;
  const start = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (left-- > 0) await fn();
    }),
  );
  const used = process.cpuUsage(start);
  return { cpu: (used.user + used.system) / CALLS, wall: ((performance.now() - t0) * 1000) / CALLS };
}

for (const fn of Object.values(cases)) await turn(fn); // warm-up
const sums: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < 4; round++) {
  for (const [name, fn] of Object.entries(cases)) sums[name]!.push((await turn(fn)).cpu);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const rows = Object.entries(sums).map(([name, v]) => ({
  case: name,
  'CPU µs per call (median of 4)': Math.round(median(v)),
  runs: v.map(Math.round).join(' '),
}));
console.table(rows);
const out = process.argv[2];
if (out) {
  // One more pipeline turn under the V8 profiler (`profile-top.ts <file>` lists its top frames).
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  await turn(cases.pipeline!);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(out, JSON.stringify(profile));
}
console.log(`pipeline over the bare call: ${Math.round(median(sums.pipeline!) - median(sums.getItem!))} µs`);
await runtime.stop();
await dynamo.stop();
process.exit(0);
