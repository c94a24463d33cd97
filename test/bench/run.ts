/**
 * `npm run bench`: latency percentiles at concurrency 16 against the local runtime, DynamoDB
 * capacity units per operation, bundle size and cold import time per function, and the figures
 * each capability contributes (webhook deliveries per second, checkout-to-sale time). Prints
 * tables and writes bench-results.json. Speed is reported here, never asserted in unit tests.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../shared/local/runtime';
import { measureFunctions } from './functions';
import { measureCapacity, measureLatency, type LatencyResult } from './http';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';

type Case = { name: string; method?: 'GET' | 'POST'; path: string | (() => string); body?: unknown; amount?: number };

async function setup(runtime: LocalRuntime) {
  const created = await (await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', body: JSON.stringify({ plan: 'volume' }) })).json();
  const key: string = created.testKey;
  const auth = { authorization: `Bearer ${key}` };
  // The bench account may send far more than 600 requests a minute.
  let productId: string | undefined;
  const product = await fetch(`${runtime.url}/products`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench ebook', price: 12.5 }) });
  if (product.status === 201) productId = (await product.json())._id;
  return { key, auth, productId };
}

async function main() {
  const dynamo = await startDynamoDbLocal();
  process.env.BENCH_DYNAMODB_ENDPOINT = dynamo.endpoint;
  const runtime = await startLocalRuntime({ port: 0, memory: true, dynamoEndpoint: dynamo.endpoint, tableName: 'bench', env: { RATE_LIMIT_PER_MINUTE: '1000000' } });
  const { auth, productId } = await setup(runtime);

  const cases: Case[] = [
    { name: 'GET /users/me', path: '/users/me' },
    { name: 'GET /docs.json', path: '/docs.json', amount: 100 },
  ];
  if (productId) {
    cases.push(
      { name: 'POST /products', method: 'POST', path: '/products', body: { name: 'Bench product', price: 9.99 } },
      { name: 'GET /products/{id}', path: `/products/${productId}` },
      { name: 'GET /products', path: '/products' },
    );
  }

  const latency: LatencyResult[] = [];
  for (const c of cases) {
    const path = typeof c.path === 'function' ? c.path() : c.path;
    const capacity = await measureCapacity(`${runtime.url}${path}`, {
      method: c.method ?? 'GET',
      headers: { ...auth, ...(c.body ? { 'content-type': 'application/json' } : {}) },
      body: c.body ? JSON.stringify(c.body) : undefined,
    });
    const result = await measureLatency({ name: c.name, url: `${runtime.url}${path}`, method: c.method, headers: auth, body: c.body, amount: c.amount });
    latency.push({ ...result, readUnits: capacity.read, writeUnits: capacity.write });
  }
  await runtime.stop();

  const extras: Record<string, unknown> = {};
  // Capabilities contribute their own figures when they are present.
  for (const [name, file, fn] of [
    ['webhooks', './webhooks', 'benchWebhooks'],
    ['checkout', './checkout', 'benchCheckout'],
    ['capacityPerLifecycleStep', './lifecycle', 'benchLifecycle'],
  ] as const) {
    if (!existsSync(new URL(`${file}.ts`, import.meta.url))) continue;
    try {
      const module = await import(file);
      extras[name] = await module[fn]();
    } catch (error) {
      extras[name] = { error: (error as Error).message };
    }
  }
  await dynamo.stop();

  const functions = await measureFunctions();

  console.log('\nLatency at concurrency 16 (local runtime, DynamoDB Local; includes auth and the rate-limit write)');
  console.table(latency.map((r) => ({ operation: r.name, requests: r.requests, 'p50 ms': r.p50, 'p99 ms': r.p99, 'req/s': r.rps, errors: r.errors + r.non2xx, RCU: r.readUnits, WCU: r.writeUnits })));
  console.log('Functions (esbuild bundle as deployed; cold import in a fresh Node process, median of 3)');
  console.table(functions.map((f) => ({ function: f.entry, KiB: f.kib, 'cold import ms': f.coldImportMs })));
  const { capacityPerLifecycleStep, ...others } = extras as { capacityPerLifecycleStep?: Record<string, { read: number; write: number }> };
  if (capacityPerLifecycleStep && !('error' in capacityPerLifecycleStep)) {
    console.log('Capacity units per lifecycle step (the request and everything it sets off, until idle)');
    console.table(Object.entries(capacityPerLifecycleStep).map(([step, units]) => ({ step, RCU: units.read, WCU: units.write })));
  } else if (capacityPerLifecycleStep) console.log('capacityPerLifecycleStep', capacityPerLifecycleStep);
  for (const [name, value] of Object.entries(others)) {
    console.log(name);
    console.log(JSON.stringify(value, null, 2));
  }
  writeFileSync('bench-results.json', JSON.stringify({ at: new Date().toISOString(), latency, functions, ...extras }, null, 2));
  console.log('Written to bench-results.json');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
