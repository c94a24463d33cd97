import { performance } from 'node:perf_hooks';
import { analyticsDayEntity, analyticsRecurringEntity } from '../../shared/analytics/entities';
import { dayOf, grossField, refundsField, salesField, mrrField, ACTIVE_SUBSCRIBERS, shardOf, WRITE_SHARDS } from '../../shared/analytics/rules';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime } from '../../shared/local/runtime';
import { objectId, randomHex } from '../../shared/platform/ids';
import { seededRandom } from '../support/seeded-random';

/**
 * The dashboard's Home data at 100,000 sales: the one request Home makes (`GET /analytics/summary`
 * for the last 30 days) and the longest range it answers (366 days), cold and warm, with the read
 * units each took. The rollups are written directly, as the analytics consumer would leave them
 * after 100,000 sales over the last year (each sale on its day and its event's write shard, one
 * in ten partly refunded): this measures the read, which is what grows with a store's history.
 * Goal (issue 42): under a second.
 */
export async function benchAnalytics(options: { sales?: number } = {}) {
  const total = options.sales ?? Number(process.env.BENCH_ANALYTICS_SALES ?? 100_000);
  const ownDynamo = process.env.BENCH_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal();
  const endpoint = process.env.BENCH_DYNAMODB_ENDPOINT ?? ownDynamo!.endpoint;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: endpoint,
    tableName: `bench_analytics_${randomHex(6)}`,
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
  const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const capacity = async () => (await call('GET', '/_local/capacity')) as { read: number; write: number };
  try {
    const account = await call('POST', '/_local/accounts', { plan: 'volume' });
    const key = account.testKey as string;
    const scope = { accountId: account.accountId as string, mode: 'test' as const };
    const deps = runtime.deps;
    const nowMs = deps.clock.nowMs();
    const r = seededRandom(11);

    // What the consumer leaves after `total` sales: counters per (day, shard).
    const items = new Map<string, { shard: number; date: string; counters: Record<string, number> }>();
    const add = (shard: number, date: string, field: string, n: number) => {
      const id = `${shard}|${date}`;
      const item = items.get(id) ?? { shard, date, counters: {} };
      item.counters[field] = (item.counters[field] ?? 0) + n;
      items.set(id, item);
    };
    const last30 = dayOf(new Date(nowMs - 29 * 86_400_000));
    let salesIn30 = 0;
    for (let i = 0; i < total; i++) {
      const date = dayOf(new Date(nowMs - Math.floor(r() * 365 * 86_400_000)));
      const shard = shardOf(objectId(deps.clock) + i);
      const cents = 500 + Math.floor(r() * 9500);
      add(shard, date, grossField('USD'), cents);
      add(shard, date, salesField('USD'), 1);
      if (r() < 0.1) add(shard, date, refundsField('USD'), Math.floor(cents / 2));
      if (date >= last30) salesIn30++;
    }
    const started = performance.now();
    await deps.store.batchPut(
      [...items.values()].map((it) => analyticsDayEntity.item(analyticsDayEntity.declaration.key(scope, it.shard, it.date), { date: it.date, ...it.counters })),
    );
    await deps.store.batchPut(
      Array.from({ length: WRITE_SHARDS }, (_, shard) =>
        analyticsRecurringEntity.item(analyticsRecurringEntity.declaration.key(scope, shard), { [mrrField('USD')]: 125_000, [ACTIVE_SUBSCRIBERS]: 100 }),
      ),
    );
    const seedMs = performance.now() - started;

    const to = dayOf(new Date(nowMs));
    // The function's cold start (module import) and the key's first authentication are other
    // figures (the functions part, the API part): one request on days with no rollups takes them,
    // so "cold" here is the first read of these rollups.
    await call('GET', '/analytics/summary?from=2001-01-01&to=2001-01-01', undefined, key);
    const measureRange = async (from: string, expectSales?: number) => {
      const runs: { ms: number; rcu: number }[] = [];
      for (let i = 0; i < 6; i++) {
        const before = await capacity();
        const t = performance.now();
        const answer = await call('GET', `/analytics/summary?from=${from}&to=${to}`, undefined, key);
        const ms = performance.now() - t;
        runs.push({ ms, rcu: (await capacity()).read - before.read });
        if (expectSales !== undefined && answer.totals.sales !== expectSales)
          throw new Error(`summary counted ${answer.totals.sales} sales, ${expectSales} were written`);
      }
      const warm = runs.slice(1);
      return {
        coldMs: round(runs[0]!.ms),
        warmMedianMs: round(median(warm.map((x) => x.ms))),
        warmMaxMs: round(Math.max(...warm.map((x) => x.ms))),
        rcu: round(median(runs.map((x) => x.rcu)), 2),
      };
    };
    const home = await measureRange(last30, salesIn30);
    const year = await measureRange(dayOf(new Date(nowMs - 365 * 86_400_000)), total);
    const worst = Math.max(home.coldMs, home.warmMaxMs);
    return {
      sales: total,
      rollupItems: items.size + WRITE_SHARDS,
      seedSeconds: round(seedMs / 1000),
      home30Days: home,
      range366Days: year,
      goal: "Home's data (30 days) under 1,000 ms",
      met: worst < 1000 ? 'yes' : 'NO',
      range366Under1000Ms: Math.max(year.coldMs, year.warmMaxMs) < 1000 ? 'yes' : 'NO',
    };
  } finally {
    await runtime.stop();
    await ownDynamo?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAnalytics().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
