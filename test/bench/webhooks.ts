import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';
import { withCapacityMeter, type CapacityMeter } from '../../shared/store/capacity';
import { newEvent, outboxPut } from '../../shared/platform/events';
import { randomHex } from '../../shared/platform/ids';
import { startLocalRuntime } from '../../shared/local/runtime';
import { attemptEntity } from '../../shared/webhooks/entities';
import { buildDeliveryBody } from '../../shared/webhooks/payload';
import { deliveryHeaders } from '../../shared/webhooks/signing';

export interface WebhookFigures {
  events: number;
  deliveriesPerSecond: number;
  goalPerSecond: number;
  /** Commit of the event's transaction to the first byte of its attempt at the receiver. */
  commitToAttemptMs: { p50: number; p99: number; max: number };
  /** Most attempts the receiver held open at once: the worker's concurrency bound, seen from outside. */
  maxConcurrentAtReceiver: number;
  /** Capacity units per successful first attempt, whole webhook path (fan-out, claim, log). */
  perDelivery: { read: number; write: number; outboxEventWrite: number; minimumWrite: number; why: string };
  signMicros: number;
}

/**
 * A deliverable type no other consumer takes, so the capacity counted is the webhook path's alone
 * (an order.completed also runs receipts, audience, links, sheets, funnels and memberships).
 */
const EVENT_TYPE = 'payment_intent.succeeded';

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/**
 * Webhook throughput end to end on the local runtime: N events written to the outbox, through
 * the stream, the bus, the fan-out, the queue and the signed HTTP attempt, to a receiver on
 * 127.0.0.1, until every attempt record is written (the clock stops when the runtime is idle again
 * and the log holds one record per event). A warm-up batch goes first. Also the cost of signing
 * one delivery (both signatures).
 */
export async function benchWebhooks(options: { events?: number; timeoutMs?: number } = {}): Promise<WebhookFigures> {
  const total = options.events ?? Number(process.env.BENCH_WEBHOOK_EVENTS ?? 600);
  const warmup = 60;
  const arrivals = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  let expected = 0;
  let allArrived: () => void = () => undefined;
  let arrived = Promise.resolve();
  const expect = (n: number) => {
    expected = n;
    arrived = new Promise<void>((resolve) => (allArrived = resolve));
  };
  const receiver = createServer((request, response) => {
    const id = String(request.headers['x-service-event-id'] ?? '');
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    request.resume();
    request.on('end', () => {
      inFlight--;
      response.writeHead(200).end();
      if (arrivals.size >= expected) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

  let ownDynamo: DynamoDbLocalProcess | undefined;
  if (!process.env.BENCH_DYNAMODB_ENDPOINT) ownDynamo = await startDynamoDbLocal();
  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT ?? ownDynamo!.endpoint,
    tableName: `bench_wh_${randomHex(6)}`,
    allowLoopbackWebhooks: true,
  });
  try {
    const account = (await (await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { accountId: string; testKey: string };
    const created = await fetch(`${runtime.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, events: [EVENT_TYPE] }),
    });
    if (created.status !== 201) throw new Error(`endpoint creation failed: ${await created.text()}`);
    const scope = { accountId: account.accountId, mode: 'test' as const };

    const commits = new Map<string, number>();
    const emitted: CapacityMeter = { read: 0, write: 0 };
    const emit = async (from: number, count: number) => {
      const writes: Promise<void>[] = [];
      for (let i = from; i < from + count; i += 25) {
        const events = Array.from({ length: Math.min(25, from + count - i) }, (_, j) => newEvent(scope, runtime.clock, EVENT_TYPE, { paymentIntent: { id: `pi${i + j}` }, amount: 1000 + i + j, metadata: {} }));
        // The events' own writes are the caller's, not the webhook path's: metered apart.
        writes.push(withCapacityMeter(emitted, () => runtime.deps.store.transact(events.map(outboxPut))).then(() => events.forEach((e) => commits.set(e.id, performance.now()))));
      }
      await Promise.all(writes);
    };
    const waitFor = async (timeoutMs: number) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        arrived,
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${expected} deliveries arrived in ${timeoutMs} ms`)), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      await runtime.settle();
    };

    expect(warmup);
    await emit(0, warmup);
    await waitFor(60_000);
    arrivals.clear();
    commits.clear();
    maxInFlight = 0;

    const before = { ...runtime.deps.store.totals };
    emitted.read = emitted.write = 0;
    expect(total);
    const started = performance.now();
    await emit(warmup, total);
    await waitFor(options.timeoutMs ?? 180_000);
    const seconds = (performance.now() - started) / 1000;
    const after = { ...runtime.deps.store.totals };

    // Every attempt is in the log (read after the capacity snapshot, so it does not count).
    const logged = (await attemptEntity.queryAll(runtime.deps.store, 'ofTenant', [scope])).filter((a) => a.attempt === 1 && a.status === 'success').length;
    if (logged < total + warmup) throw new Error(`only ${logged} of ${total + warmup} attempts logged`);

    const latencies = [...arrivals.entries()].map(([id, at]) => at - (commits.get(id) ?? at)).sort((a, b) => a - b);

    // Signing cost: a realistic body (an order.completed of about 1 KB), both signatures.
    const body = buildDeliveryBody(
      { id: randomHex(12), type: 'order.completed', created: 1_700_000_000, data: { order: { id: randomHex(12), items: Array.from({ length: 8 }, (_, k) => ({ sku: `sku-${k}`, name: 'x'.repeat(60), qty: 1 })) }, amount: 4200 } },
      randomHex(12),
    );
    const secret = randomHex(24);
    const rounds = 5000;
    for (let i = 0; i < 500; i++) deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e', nowMs: 1_700_000_000_000 });
    const signStart = performance.now();
    for (let i = 0; i < rounds; i++) deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e', nowMs: 1_700_000_000_000 + i });
    const signMicros = ((performance.now() - signStart) * 1000) / rounds;

    return {
      events: total,
      deliveriesPerSecond: round(total / seconds),
      goalPerSecond: 120,
      commitToAttemptMs: { p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), max: round(latencies.at(-1) ?? 0) },
      maxConcurrentAtReceiver: maxInFlight,
      perDelivery: {
        read: round((after.read - before.read) / total, 2),
        write: round((after.write - before.write - emitted.write) / total, 2),
        outboxEventWrite: round(emitted.write / total, 2),
        minimumWrite: 7,
        why: 'the attempt log entry (1-2 KiB: headers, body, answer excerpt = 2 WCU) written to the table and to both indexes the log filters query (they project the whole item: 3 × 2), and moving the delivery on (1); the claim before the HTTP call is the 8th, the price of never calling a receiver twice at once',
      },
      signMicros: round(signMicros, 2),
    };
  } finally {
    await runtime.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await ownDynamo?.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  benchWebhooks().then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
