import { performance } from 'node:perf_hooks';
import { startLocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { foldReports } from '../../shared/usage/service';
import { FOLD_EVERY_SECONDS, REPORT_SETTLE_SECONDS } from '../../shared/usage/rules';

/**
 * Usage reports on the local runtime: reports per second sustained for one subscriber and across
 * 100 subscribers (16 in flight), and capacity units per report, measured from the runtime's
 * running total (`GET /_local/capacity`):
 * - on the request path alone (the goal: 1 WCU for a keyless report, a bare PutItem);
 * - amortised: once everything the reports set off has settled (the `usage.recorded` consumers)
 *   and every report has been folded into its day counter (the clock moved past the settle window
 *   and a fold forced for each subscriber of the run, as the next consumer run or the period
 *   close would), divided by the reports.
 * Beside them the floor: bare `PutItem`s of one small item on the same DynamoDB Local (1 WCU
 * each), at the same concurrency.
 *
 * One subscriber is held to 300 reports a minute, so its run advances the local clock by a minute
 * after every 250 reports (the clock call is inside the timing, which makes the figure a little
 * pessimistic).
 */
export async function benchUsage(options: { reports?: number } = {}) {
  const total = options.reports ?? 1000;
  const concurrency = 16;
  const ownDynamo = process.env.BENCH_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal();
  const endpoint = process.env.BENCH_DYNAMODB_ENDPOINT ?? ownDynamo!.endpoint;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: endpoint,
    tableName: `bench_usage_${randomHex(6)}`,
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const call = async (method: string, path: string, body?: unknown, key?: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const capacity = async () => (await call('GET', '/_local/capacity')) as { read: number; write: number };
  const pool = async (count: number, fn: (i: number) => Promise<unknown>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) await fn(i);
      }),
    );
  };
  try {
    const account = await call('POST', '/_local/accounts', { plan: 'volume' });
    const key = account.testKey as string;
    const offer = await call('POST', '/subscriptions', { name: 'Bench metered', price: 10, frequency: 'monthly' }, key);
    await call(
      'PUT',
      `/subscriptions/${offer._id}/usage-pricing`,
      { seats: { enabled: false }, meters: [{ key: 'calls', name: 'Calls', unitPriceCents: 1, includedUnits: 1000 }] },
      key,
    );
    const subscribers: string[] = [];
    for (let i = 0; i < 101; i++) {
      const session = await call(
        'POST',
        '/checkout/sessions',
        { productId: offer._id, successUrl: 'https://b.example.com/ok', cancelUrl: 'https://b.example.com/no' },
        key,
      );
      subscribers.push((await call('POST', `/_local/checkout/${session.id}/pay`, { email: `u${i}@bench.example.com` })).subscriberId);
    }
    await call('POST', '/_local/settle', {});
    const report = (sub: string, headers: Record<string, string> = {}) =>
      call('POST', `/subscriptions/${sub}/usage`, { meter: 'calls', quantity: 1 }, key, headers);
    // Warm-up (not counted).
    await pool(200, (i) => report(subscribers[1 + (i % 100)]!));
    await call('POST', '/_local/settle', {});

    const scope = { accountId: account.accountId as string, mode: 'test' as const };
    const measureRun = async (name: string, count: number, target: (i: number) => string, headers?: (i: number) => Record<string, string>) => {
      await call('POST', '/_local/settle', {});
      const before = await capacity();
      const started = performance.now();
      for (let done = 0; done < count; done += 250) {
        await pool(Math.min(250, count - done), (i) => report(target(done + i), headers?.(done + i)));
        if (name.startsWith('one')) await call('POST', '/_local/clock/advance', { seconds: 61 });
      }
      const seconds = (performance.now() - started) / 1000;
      const requestOnly = await capacity();
      await call('POST', '/_local/settle', {});
      // Fold what is left: past the settle window, one forced fold per subscriber of the run.
      await call('POST', '/_local/clock/advance', { seconds: REPORT_SETTLE_SECONDS + FOLD_EVERY_SECONDS + 1 });
      let folded = 0;
      for (const sub of new Set(Array.from({ length: count }, (_, i) => target(i)))) folded += await foldReports(runtime.deps, scope, sub, { force: true });
      const after = await capacity();
      const round = (n: number) => Math.round(n * 100) / 100;
      return {
        name,
        reportsPerSecond: round(count / seconds),
        requestWcuPerReport: round((requestOnly.write - before.write) / count),
        requestRcuPerReport: round((requestOnly.read - before.read) / count),
        amortisedWcuPerReport: round((after.write - before.write) / count),
        amortisedRcuPerReport: round((after.read - before.read) / count),
        foldedByFinalFold: folded,
      };
    };
    const one = await measureRun('one subscriber, no key', total, () => subscribers[0]!);
    const many = await measureRun('100 subscribers, no key', total, (i) => subscribers[1 + (i % 100)]!);
    const keyed = await measureRun(
      '100 subscribers, with Idempotency-Key',
      total,
      (i) => subscribers[1 + (i % 100)]!,
      (i) => ({ 'idempotency-key': `bench-${i}` }),
    );

    // Floor: a bare PutItem of one small item per report, same concurrency, same DynamoDB Local.
    const { DynamoDBClient, PutItemCommand } = await import('@aws-sdk/client-dynamodb');
    const client = new DynamoDBClient({ region: 'us-east-1', endpoint: endpoint, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
    const put = (i: number) =>
      client.send(
        new PutItemCommand({
          TableName: runtime.tableName,
          Item: { PK: { S: `FLOOR#${i % 100}` }, SK: { S: `R#${i}` }, meter: { S: 'calls' }, quantity: { N: '1' } },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
    await pool(200, (i) => put(-i - 1));
    const floorStart = performance.now();
    await pool(total, put);
    const floorPerSecond = Math.round((total / ((performance.now() - floorStart) / 1000)) * 100) / 100;
    client.destroy();

    const rows = [one, many, keyed].map((r) => ({
      ...r,
      floorPerSecond,
      ratio: Math.round((r.reportsPerSecond / floorPerSecond) * 100) / 100,
      floorWcu: 1,
      requestWcuRatio: r.requestWcuPerReport,
    }));
    console.log('Usage reports (16 in flight) beside the floor (bare PutItem, 1 WCU); request path and amortised (consumers and folds included)');
    console.table(rows);
    return { reports: total, concurrency, runs: rows };
  } finally {
    await runtime.stop();
    await ownDynamo?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchUsage({ reports: Number(process.env.BENCH_USAGE_REPORTS ?? 1000) }).then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
