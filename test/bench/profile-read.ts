/**
 * Where a read's time goes: `npx tsx test/bench/profile-read.ts [get|list] [out.cpuprofile]` starts
 * DynamoDB Local, the local runtime (in this process) and the bench's floor server (its own
 * process) on the same items, drives `GET /products/{id}` (or `/products`, 20 items) and the
 * floor's GetItem (Query of 20) with autocannon at the bench's concurrency in turns, and prints
 * CPU time per request of each server process and of DynamoDB Local (user + system, from /proc)
 * beside latency. With an
 * output file, the runtime's measured turn is CPU-profiled (V8 inspector, the window only) and
 * its top self-time frames printed (`profile-top.ts` reads such a file).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname } from 'node:path';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime } from '../../shared/local/runtime';
import { keys } from '../../shared/store/keys';
import { startFloor } from './floor-process';
import { runLoad } from './http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';

const list = process.argv[2] === 'list';
/** `me`: `GET /users/me` (no table read: cached key, leased rate limit) beside the floor's bare `noop` route: the pipeline alone. */
const me = process.argv[2] === 'me';
const out = process.argv[3];
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const TICK_MS = 10; // USER_HZ 100 on Linux

/** User + system CPU milliseconds of a process so far. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};

const dynamo = await startDynamoDbLocal();
const runtime = await startLocalRuntime({
  port: 0,
  memory: true,
  dynamoEndpoint: dynamo.endpoint,
  tableName: 'profile',
  env: { RATE_LIMIT_PER_MINUTE: '100000000' },
});
const created = await (await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', body: JSON.stringify({ plan: 'volume' }) })).json();
const auth = { authorization: `Bearer ${created.testKey as string}` };
const scope = { accountId: created.accountId as string, mode: 'test' as const };
let productId = '';
for (let i = 0; i < 20; i++) {
  const res = await fetch(`${runtime.url}/products`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Profile ebook ${i}`, price: 12.5 }),
  });
  productId = (await res.json())._id;
}
const getKey = keys.entity(scope, 'PRODUCT', productId);
const item = (await runtime.deps.store.get<Record<string, unknown>>(getKey))!;
const floor = await startFloor(
  { endpoint: dynamo.endpoint, table: runtime.tableName, getKey, queryPk: keys.collection(scope, 'PRODUCT'), item },
  out ? ['--cpu-prof', `--cpu-prof-dir=${dirname(out)}/floor`, '--cpu-prof-interval=200'] : [],
);
const api = { url: `${runtime.url}${me ? '/users/me' : list ? '/products' : `/products/${productId}`}`, headers: auth, connections: 16 };
const bare = { url: `${floor.url}/${me ? 'noop' : list ? 'query20' : 'get'}`, connections: 16 };

await runLoad({ ...bare, seconds: 4 });
await runLoad({ ...api, seconds: 4 });
// DynamoDB calls the runtime's store makes per request (the floor makes exactly one).
const calls: Record<string, number> = {};
runtime.deps.store.client.middlewareStack.add(
  (next, context) => async (args) => {
    const name = String(context.commandName ?? 'unknown').replace(/Command$/, '');
    calls[name] = (calls[name] ?? 0) + 1;
    return next(args);
  },
  { step: 'initialize', name: 'profileCallCounter' },
);
let apiRequests = 0;
const session = new Session();
session.connect();
const rows = [];
for (const [name, target, pid] of [
  ['floor', bare, floor.pid],
  ['api', api, process.pid],
  ['floor', bare, floor.pid],
  ['api', api, process.pid],
] as const) {
  const profiling = out && name === 'api' && rows.length === 1;
  if (profiling) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const before = cpuMs(pid);
  const dynamoBefore = dynamo.pid ? cpuMs(dynamo.pid) : 0;
  const figures = await runLoad({ ...target, seconds });
  const cpu = cpuMs(pid) - before;
  const dynamoCpu = dynamo.pid ? cpuMs(dynamo.pid) - dynamoBefore : 0;
  if (name === 'api') apiRequests += figures.requests;
  if (profiling) writeFileSync(out, JSON.stringify((await session.post('Profiler.stop')).profile));
  rows.push({
    server: name,
    p50: figures.p50,
    p99: figures.p99,
    rps: figures.rps,
    errors: figures.errors,
    'server CPU µs/request': Math.round((cpu * 1000) / figures.requests),
    'DynamoDB Local CPU µs/request': Math.round((dynamoCpu * 1000) / figures.requests),
  });
}
console.table(rows);
console.log(
  'store calls per API request (from the warm-up on):',
  Object.fromEntries(Object.entries(calls).map(([name, n]) => [name, Math.round((n / apiRequests) * 1000) / 1000])),
);
floor.stop();
await new Promise((resolve) => setTimeout(resolve, 1000));
await runtime.stop();
await dynamo.stop();
process.exit(0);
