import { performance } from 'node:perf_hooks';
import { startLocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';

/**
 * Import throughput on the local runtime: a CSV of N subscriber rows (default 50,000), from
 * `start` until the import is `completed` (batches of 250 rows through the queue; per batch a
 * lease, the new addresses claimed 100 to a conditional transaction, contacts and row markers by
 * BatchWriteItem, one cursor move with the progress counters). Uploading the file (row items by
 * BatchWriteItem) and the dry run are timed apart. DynamoDB calls per 1,000 rows are counted by
 * command over the run; capacity units per row come from the runtime's running total. Beside them
 * the floor: bare `BatchWriteItem` of 25 items on the same DynamoDB Local, as rows per second if
 * each row cost one plain item write and nothing else.
 */
export async function benchImports(options: { rows?: number } = {}) {
  const total = options.rows ?? Number(process.env.BENCH_IMPORT_ROWS ?? 50_000);
  const runtime = await startLocalRuntime({ port: 0, memory: true, dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT, tableName: `bench_imp_${randomHex(6)}` });
  // DynamoDB calls by command over the run (the runtime runs in this process).
  const calls: Record<string, number> = {};
  const callMs: Record<string, number> = {};
  runtime.deps.store.client.middlewareStack.add((next, context) => async (args) => {
    const name = String(context.commandName ?? 'unknown').replace(/Command$/, '');
    calls[name] = (calls[name] ?? 0) + 1;
    const started = performance.now();
    try {
      return await next(args);
    } finally {
      callMs[name] = (callMs[name] ?? 0) + performance.now() - started;
    }
  }, { step: 'initialize', name: 'benchCallCounter' });
  const call = async (method: string, path: string, body?: unknown, key?: string, okStatuses = [504]) => {
    const res = await fetch(`${runtime.url}${path}`, { method, headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300 && !okStatuses.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : {};
  };
  const csvOf = (prefix: string, n: number) => ['Email,First Name,Status,Subscribed At', ...Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(6, '0')}@bench.example.com,Reader ${i},subscribed,2023-01-01`)].join('\n');
  const runToEnd = async (key: string, id: string) => {
    await call('POST', `/migrations/${id}/start`, undefined, key);
    for (;;) {
      await call('POST', '/_local/settle', {});
      const record = await call('GET', `/migrations/${id}`, undefined, key);
      if (record.status !== 'running') return record;
    }
  };
  try {
    const account = await call('POST', '/_local/accounts', { plan: 'volume' });
    const key = account.testKey as string;
    // Warm-up: a small import (clients, code paths), not counted.
    const warm = await call('POST', '/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'warm.csv', csv: csvOf('w', 300) }] }, key);
    await runToEnd(key, warm._id);

    const uploadStart = performance.now();
    const created = await call('POST', '/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 'subscribers.csv', csv: csvOf('b', total) }] }, key);
    const uploadSeconds = (performance.now() - uploadStart) / 1000;
    const dryStart = performance.now();
    const dry = await call('POST', `/migrations/${created._id}/dry-run`, undefined, key);
    const drySeconds = (performance.now() - dryStart) / 1000;
    if (dry.kinds.subscribers.create !== total) throw new Error(`dry run would create ${dry.kinds.subscribers.create} of ${total}`);

    await call('POST', '/_local/settle', {});
    const before = (await call('GET', '/_local/capacity')) as { read: number; write: number };
    const callsBefore = { ...calls };
    const started = performance.now();
    const done = await runToEnd(key, created._id);
    const seconds = (performance.now() - started) / 1000;
    const after = (await call('GET', '/_local/capacity')) as { read: number; write: number };
    const callsPer1000Rows = Object.fromEntries(Object.entries(calls).map(([name, n]) => [name, Math.round(((n - (callsBefore[name] ?? 0)) / total) * 1000 * 10) / 10]).filter(([, n]) => (n as number) > 0));
    if (done.status !== 'completed' || done.progress.subscribers.created !== total) throw new Error(`import ended ${done.status} with ${JSON.stringify(done.progress.subscribers)}`);

    const { BatchWriteItemCommand, DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint: runtime.config.DYNAMODB_ENDPOINT, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const floorItems = Math.min(total, 20_000);
    const floorWrite = async (offset: number) =>
      client.send(new BatchWriteItemCommand({ RequestItems: { [runtime.tableName]: Array.from({ length: 25 }, (_, j) => ({ PutRequest: { Item: { PK: { S: `FLOOR#${offset}` }, SK: { S: `R#${j}` }, email: { S: `f${offset}-${j}@bench.example.com` } } } })) } }));
    for (let i = 0; i < 10; i++) await floorWrite(-i - 1);
    const floorStart = performance.now();
    for (let i = 0; i < floorItems; i += 25 * 4) await Promise.all([0, 1, 2, 3].map((k) => floorWrite(i + k * 25)));
    const floorSeconds = (performance.now() - floorStart) / 1000;
    client.destroy();

    const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
    const perSecond = total / seconds;
    const floorPerSecond = floorItems / floorSeconds;
    return {
      rows: total,
      uploadSeconds: round(uploadSeconds),
      dryRunSeconds: round(drySeconds),
      runSeconds: round(seconds),
      rowsPerSecond: round(perSecond, 1),
      goal: 2000,
      met: perSecond >= 2000 ? 'yes' : 'NO',
      floorRowsPerSecond: round(floorPerSecond, 1),
      ratioToFloor: round(perSecond / floorPerSecond),
      dynamoCallsPer1000Rows: callsPer1000Rows,
      capacityPerRow: { read: round((after.read - before.read) / total, 3), write: round((after.write - before.write) / total, 3) },
      floorCapacityPerRow: { read: 0, write: 1, why: 'one item under 1 KiB written by BatchWriteItem' },
      minimumCapacityPerRow: { read: 0, write: 3, why: 'a new subscriber is at least 3 items under 1 KiB (contact, email claim, facts delta), more on real DynamoDB for the contact\'s 2 GSI entries' },
    };
  } finally {
    await runtime.stop();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  benchImports().then((result) => console.log(JSON.stringify(result, null, 2)), (error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
