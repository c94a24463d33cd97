import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDynamoDbLocal } from '../../shared/local/dynamodb';
import { startLocalRuntime, type LocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';
import { startHeatProxy, type HeatProxy } from './heat-proxy';

/**
 * The partition-heat run: a creator's launch. One account sells to many buyers at once with
 * everything on (a webhook endpoint, receipts, contacts with checkout opt-in, a segment with a
 * smart tag, spreadsheet sync); a second account then does the same on a smaller scale. Every
 * write goes through the heat proxy, which charges its write units to the partitions it lands on.
 *
 * Printed: write units per checkout in all and on each of the hottest partitions, the checkout
 * rate at which the hottest partition reaches DynamoDB's 1,000 write units a second (the ceiling
 * of one account's launch), and the partitions both accounts wrote (shared by every account: the
 * ceiling of the whole deployment). The same for usage reports of many subscribers of one account.
 */
const PARTITION_WCU_PER_SECOND = 1000;
/**
 * Write units a paid checkout of this workload cannot do with less under the design's rules (a
 * change and its events in one transaction, which DynamoDB bills twice per item; a consumer that
 * adds to a counter guards it with a once-marker in the counter's transaction; a mail claimed
 * before the provider is called, so that it goes once), each item within one KiB, each list by a
 * second key one index entry (docs/performance.md, "Partition heat of a launch"). `records` is
 * the same with no transaction: every record written once.
 */
const FLOOR = [
  { part: 'session opened, and the activity-log entry of that API call', units: 2, records: 2 },
  { part: 'completion: session, sale, customer, email guard, order.completed, customer.created (one transaction)', units: 12, records: 6 },
  { part: "sale's index entries: the orders list (one-time sales), the customer's sales (export, erasure)", units: 2, records: 2 },
  { part: "the payment's lookup (refunds and disputes arrive by the processor's payment id): an index entry", units: 1, records: 1 },
  { part: 'a webhook delivery-log entry per event', units: 2, records: 2 },
  { part: 'two mails (receipt, sale notice): queued, claimed, then sent record and sent count in one transaction', units: 12, records: 8 },
  { part: "the buyer's contact and its email guard (one transaction), its two index entries (by status, by email)", units: 6, records: 4 },
  { part: "the day's analytics rollup and its once-marker (one transaction)", units: 4, records: 2 },
];
const FLOOR_UNITS_PER_CHECKOUT = FLOOR.reduce((sum, f) => sum + f.units, 0);
const CONCURRENCY = 8;

interface Heat {
  perCheckout: number;
  hottest: { partition: string; unitsPerEvent: number }[];
  ceilingPerSecond: number;
}

const label = (partition: string, accounts: string[]) =>
  accounts.reduce((text, account, i) => text.replaceAll(account, `<account${i + 1}>`), partition).replace(/[0-9a-f]{24}/g, '<id>');

function summarize(units: Map<string, number>, events: number, accounts: string[]): Heat {
  const total = [...units.values()].reduce((a, b) => a + b, 0);
  const hottest = [...units.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 16)
    .map(([partition, n]) => ({ partition: label(partition, accounts), unitsPerEvent: Math.round((n / events) * 100) / 100 }));
  return {
    perCheckout: Math.round((total / events) * 10) / 10,
    hottest,
    ceilingPerSecond: Math.round(PARTITION_WCU_PER_SECOND / (hottest[0]?.unitsPerEvent ?? 1)),
  };
}

/**
 * The account's collections (a partition without its write-shard suffix `#<n>`): shards written,
 * units per checkout in all, and on the fullest shard. With few checkouts the fullest shard sits
 * above the mean by chance (ids hash evenly); a launch of thousands evens it out.
 */
function byCollection(units: Map<string, number>, events: number, accounts: string[]) {
  const groups = new Map<string, number[]>();
  for (const [partition, n] of units) {
    const name = label(partition, accounts);
    if (!name.includes('<account1>')) continue;
    const collection = name.replace(/#\d+$/, '#<n>');
    groups.set(collection, [...(groups.get(collection) ?? []), n]);
  }
  const round = (n: number) => Math.round((n / events) * 100) / 100;
  return [...groups.entries()]
    .map(([collection, shards]) => ({
      collection,
      shards: shards.length,
      unitsPerCheckout: round(shards.reduce((a, b) => a + b, 0)),
      fullest: round(Math.max(...shards)),
    }))
    .sort((a, b) => b.fullest - a.fullest)
    .slice(0, 24);
}

async function pool(count: number, work: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
}

function client(runtime: LocalRuntime) {
  return async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${runtime.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : {};
  };
}

/** A store with everything a launch touches switched on. */
async function openStore(runtime: LocalRuntime, receiverUrl: string) {
  const call = client(runtime);
  const account = await call('POST', '/_local/accounts', { plan: 'volume' });
  const key = account.testKey as string;
  const product = await call('POST', '/products', { name: 'Launch course', price: 49 }, key);
  await call('POST', '/webhooks', { url: receiverUrl, events: ['order.completed', 'customer.created'] }, key);
  await call(
    'POST',
    '/newsletters/segments',
    { name: 'Buyers', definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'spent', op: 'gt', amountCents: 0 }] }] }, smartTag: 'buyer' },
    key,
  );
  const link = await call('POST', '/sheets-sync/connect', undefined, key);
  const consent = await (await fetch(link.url)).text();
  const allow = /id="allow" href="([^"]+)"/.exec(consent)?.[1]?.replace(/&amp;/g, '&');
  if (allow) await fetch(allow);
  return { accountId: account.accountId as string, key, productId: product._id as string };
}

async function launch(runtime: LocalRuntime, store: { key: string; productId: string }, buyers: number, tag: string) {
  const call = client(runtime);
  await pool(buyers, async (i) => {
    const session = await call(
      'POST',
      '/checkout/sessions',
      { productId: store.productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' },
      store.key,
    );
    await call('POST', `/_local/checkout/${session.id}/pay`, {
      email: `${tag}${i}@launch.example.com`,
      firstName: 'Ann',
      lastName: 'Lee',
      country: 'DE',
      marketingOptIn: true,
    });
  });
  await runtime.settle();
}

export async function benchLaunch(options: { checkouts?: number; reports?: number } = {}) {
  const checkouts = options.checkouts ?? 80;
  const reports = options.reports ?? 400;
  const own = process.env.BENCH_DYNAMODB_ENDPOINT ? undefined : await startDynamoDbLocal();
  const proxy: HeatProxy = await startHeatProxy(process.env.BENCH_DYNAMODB_ENDPOINT ?? own!.endpoint);
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: proxy.endpoint,
    tableName: `bench_launch_${randomHex(6)}`,
    allowLoopbackWebhooks: true,
    env: { RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  try {
    const first = await openStore(runtime, receiverUrl);
    const second = await openStore(runtime, receiverUrl);
    const accounts = [first.accountId, second.accountId];
    await runtime.settle();

    proxy.reset();
    await launch(runtime, first, checkouts, 'a');
    const firstUnits = proxy.units();
    const firstEntities = proxy.entityUnits();
    const firstWrites = proxy.entityWrites();
    const partiql = proxy.partiqlStatements();
    proxy.reset();
    await launch(runtime, second, Math.max(10, checkouts / 4), 'b');
    const secondUnits = proxy.units();
    const shared = [...firstUnits.keys()].filter((p) => secondUnits.has(p) && !accounts.some((a) => p.includes(a)));

    // Usage reports: many subscribers of one account reporting at once.
    const call = client(runtime);
    const offer = await call('POST', '/subscriptions', { name: 'Metered', price: 10, frequency: 'monthly' }, first.key);
    await call(
      'PUT',
      `/subscriptions/${offer._id}/usage-pricing`,
      { seats: { enabled: false }, meters: [{ key: 'calls', name: 'Calls', unitPriceCents: 1, includedUnits: 1000 }] },
      first.key,
    );
    const subscribers: string[] = [];
    for (let i = 0; i < 40; i++) {
      const session = await call(
        'POST',
        '/checkout/sessions',
        { productId: offer._id, successUrl: 'https://b.example.com/ok', cancelUrl: 'https://b.example.com/no' },
        first.key,
      );
      subscribers.push((await call('POST', `/_local/checkout/${session.id}/pay`, { email: `u${i}@launch.example.com` })).subscriberId);
    }
    await runtime.settle();
    proxy.reset();
    await pool(reports, (i) => call('POST', `/subscriptions/${subscribers[i % subscribers.length]}/usage`, { meter: 'calls', quantity: 1 }, first.key));
    await runtime.settle();
    const usage = summarize(proxy.units(), reports, accounts);

    const checkout = summarize(firstUnits, checkouts, accounts);
    const result = {
      checkouts,
      floorUnitsPerCheckout: FLOOR_UNITS_PER_CHECKOUT,
      checkout: { ...checkout, goalPerSecond: 1000, met: checkout.ceilingPerSecond >= 1000 },
      sharedByAllAccounts: shared.map((p) => ({
        partition: label(p, accounts),
        unitsPerCheckout: Math.round(((firstUnits.get(p) ?? 0) / checkouts) * 100) / 100,
      })),
      byCollection: byCollection(firstUnits, checkouts, accounts),
      // The sandbox processor's own records: in live mode they are Stripe's, not in this table.
      withoutSandbox:
        Math.round(([...firstEntities.entries()].filter(([entity]) => !entity.startsWith('Sandbox')).reduce((a, [, n]) => a + n, 0) / checkouts) * 10) / 10,
      byEntity: [...firstEntities.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([entity, n]) => {
          const w = firstWrites.get(entity);
          return {
            entity,
            unitsPerCheckout: Math.round((n / checkouts) * 100) / 100,
            // Why it costs that: writes per checkout, how many of them in a transaction, the largest item.
            writesPerCheckout: Math.round(((w?.writes ?? 0) / checkouts) * 100) / 100,
            inTransaction: Math.round(((w?.transactional ?? 0) / checkouts) * 100) / 100,
            largestBytes: w?.maxBytes ?? 0,
          };
        }),
      partiqlStatementsNotAttributed: partiql,
      usageReports: { reports, ...usage, goalPerSecond: 10_000, met: usage.ceilingPerSecond >= 10_000 },
    };
    printLaunch(result);
    return result;
  } finally {
    await runtime.stop();
    await proxy.stop();
    receiver.close();
    await own?.stop();
  }
}

function printLaunch(result: {
  checkouts: number;
  checkout: Heat & { met: boolean };
  withoutSandbox: number;
  sharedByAllAccounts: { partition: string; unitsPerCheckout: number }[];
  byCollection: ReturnType<typeof byCollection>;
  byEntity: { entity: string; unitsPerCheckout: number; writesPerCheckout: number; inTransaction: number; largestBytes: number }[];
  usageReports: Heat & { met: boolean };
}) {
  console.log(`\nPartition heat, launch of ${result.checkouts} checkouts (write units per checkout: ${result.checkout.perCheckout})`);
  console.table(result.checkout.hottest);
  console.log('Collections of the account (write shards as <n>), by fullest partition:');
  console.table(result.byCollection);
  console.log('Write units per checkout by entity (table and index writes):');
  console.table(result.byEntity);
  console.log('The floor: what a paid checkout of this workload must write, under the design rules (units) and with none (records):');
  console.table(FLOOR);
  const ratio = (units: number) => `${Math.round((units / FLOOR_UNITS_PER_CHECKOUT) * 100) / 100}× the floor of ${FLOOR_UNITS_PER_CHECKOUT}`;
  console.log(`Write units per checkout: ${result.checkout.perCheckout} in all (${ratio(result.checkout.perCheckout)})`);
  console.log(`  without the sandbox processor's own records (Stripe's in live mode): ${result.withoutSandbox} (${ratio(result.withoutSandbox)}; goal 1.5×)`);
  console.log(`One account's launch ceiling: ${result.checkout.ceilingPerSecond} checkouts/s (goal 1,000: ${result.checkout.met ? 'met' : 'not met'})`);
  console.log(`Partitions shared by every account on this path: ${result.sharedByAllAccounts.length ? '' : 'none'}`);
  if (result.sharedByAllAccounts.length) console.table(result.sharedByAllAccounts);
  console.log(`Usage reports of 40 subscribers of one account: ${result.usageReports.perCheckout} write units per report`);
  console.table(result.usageReports.hottest);
  console.log(`One account's usage ceiling: ${result.usageReports.ceilingPerSecond} reports/s (goal 10,000: ${result.usageReports.met ? 'met' : 'not met'})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.POWERTOOLS_LOG_LEVEL = 'ERROR';
  benchLaunch({ checkouts: Number(process.env.LAUNCH_CHECKOUTS ?? 80) }).then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
