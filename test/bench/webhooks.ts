import { Agent, createServer, request as httpRequest } from 'node:http';
import os from 'node:os';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/store/client';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { startDynamoDbLocal, type DynamoDbLocalProcess } from '../../shared/local/dynamodb';
import { newEvent, outboxPut } from '../../shared/platform/events';
import { randomHex } from '../../shared/platform/ids';
import { startLocalRuntime } from '../../shared/local/runtime';
import { attemptEntity, attemptPartitions } from '../../shared/webhooks/entities';
import { buildDeliveryBody } from '../../shared/webhooks/payload';
import { deliveryHeaders } from '../../shared/webhooks/signing';

export interface WebhookFigures {
  /** `os.loadavg()` when the run started and ended: the machine is shared, so rates move with it. */
  loadAverage: { start: number[]; end: number[] };
  floors: {
    /** Bare 1 KiB conditional PutItems per second, 24 in flight (the worker's bound), same DynamoDB Local. */
    putItemPerSecond: number;
    putItemP50Ms: number;
    /** Bare 1 KiB items per second in BatchWriteItem calls of 25, 2 calls in flight (the log's group commit), same DynamoDB Local. */
    batchedItemPerSecond: number;
    /** A bare keep-alive POST to the same receiver, p50. */
    httpPostP50Ms: number;
    /**
     * The store's ceiling for deliveries: the rate at which it takes a delivery's writes, one
     * single conditional write (the claim) and two items in batches (the log entry, then the
     * delivery moved on).
     */
    storeCeilingPerSecond: number;
  };
  burst: {
    events: number;
    deliveriesPerSecond: number;
    goalPerSecond: number;
    /** Deliveries per second over the store's ceiling (1 = every write the store could take went to a delivery). */
    ratioToStoreCeiling: number;
    /** Queueing, for reference: every event is committed within the first second. */
    commitToAttemptMs: { p50: number; p99: number; max: number };
    /** Most attempts the receiver held open at once: the worker's concurrency bound, seen from outside. */
    maxConcurrentAtReceiver: number;
    /**
     * Every request DynamoDB Local served per delivery during the burst, by command, stream reads
     * included (locally they share its single writer; in AWS the event source mapping reads the
     * stream outside the table's capacity).
     */
    requestsPerDelivery: { total: number; byCommand: Record<string, number> };
    /** The bare PutItem rate over those requests: what DynamoDB Local allows this pipeline, and the ratio to it. */
    requestCeilingPerSecond: number;
    ratioToRequestCeiling: number;
  };
  paced: {
    events: number;
    perSecond: number;
    /** Commit of the event's transaction to the first byte of its attempt at the receiver. */
    commitToAttemptMs: { p50: number; p99: number; max: number };
    goalP99Ms: number;
    /** The irreducible part: one write (the claim) and one HTTP POST; the rest is stream, bus and queue hops. */
    floorMs: number;
    p50RatioToFloor: number;
  };
  /** Capacity units per successful first attempt, whole webhook path (fan-out, claim, log), burst run. */
  perDelivery: { read: number; minimumRead: number; write: number; minimumWrite: number; outboxEventWrite: number; why: string };
  signMicros: number;
  /** Attempts that did not succeed (each was retried and its event delivered): should be none. */
  failedAttempts: { count: number; errors: string[] };
}

/**
 * A deliverable type no other consumer takes, so the capacity counted is the webhook path's alone
 * (an order.completed also runs receipts, audience, links, sheets, funnels and memberships).
 */
const EVENT_TYPE = 'payment_intent.succeeded';
const WORKER_CONCURRENCY = 24;
const MINIMUM_WRITE = 3;
/** A delivery's write made as a request of its own (the claim); its log entry and its move-on go in batches. */
const SINGLE_WRITES = 1;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Counts the requests the runtime's clients send, by command: the document client (every store
 * operation) and the stream reader's client. Instrumentation of this bench process only.
 */
function countRequests() {
  const counts = new Map<string, number>();
  const restores: (() => void)[] = [];
  for (const client of [DynamoDBDocumentClient, DynamoDBStreamsClient] as unknown as {
    prototype: { send: (command: object, ...rest: unknown[]) => unknown };
  }[]) {
    const send = client.prototype.send;
    client.prototype.send = function (this: unknown, command: object, ...rest: unknown[]) {
      const name = command.constructor.name.replace(/Command$/, '');
      counts.set(name, (counts.get(name) ?? 0) + 1);
      return send.call(this, command, ...rest);
    };
    restores.push(() => (client.prototype.send = send));
  }
  return {
    snapshot: () => new Map(counts),
    restore: () => {
      for (const restore of restores) restore();
    },
  };
}
const requestsSince = (before: Map<string, number>, after: Map<string, number>, per: number) => {
  const byCommand = Object.fromEntries([...after].map(([name, n]) => [name, round((n - (before.get(name) ?? 0)) / per, 2)] as const).filter(([, n]) => n > 0));
  return {
    total: round(
      Object.values(byCommand).reduce((a, b) => a + b, 0),
      2,
    ),
    byCommand,
  };
};

/** Bare PutItems of a 1 KiB item, `concurrency` in flight: the store's own write rate. */
async function putFloor(endpoint: string, table: string, count: number, concurrency: number) {
  const client = documentClient({ region: 'us-east-1', endpoint });
  const filler = 'x'.repeat(900);
  let n = 0;
  const latencies: number[] = [];
  const run = async (total: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < total) {
          const t = performance.now();
          await client.send(
            new PutCommand({ TableName: table, Item: { PK: 'FLOOR#puts', SK: `p${n++}`, filler }, ConditionExpression: 'attribute_not_exists(PK)' }),
          );
          latencies.push(performance.now() - t);
        }
      }),
    );
  };
  await run(200);
  latencies.length = 0;
  const started = performance.now();
  await run(count);
  const perSecond = count / ((performance.now() - started) / 1000);
  // Latency alone (one in flight), as the claim of a delivery on a quiet worker sees it.
  latencies.length = 0;
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await client.send(new PutCommand({ TableName: table, Item: { PK: 'FLOOR#puts', SK: `s${n++}`, filler }, ConditionExpression: 'attribute_not_exists(PK)' }));
    latencies.push(performance.now() - t);
  }
  // The client is the runtime's own (one per endpoint): left open.
  return { perSecond: round(perSecond), p50: spread(latencies).p50 };
}

/** Bare 1 KiB items in BatchWriteItem calls of 25, `concurrency` calls in flight: items per second. */
async function batchFloor(endpoint: string, table: string, count: number, concurrency: number) {
  const client = documentClient({ region: 'us-east-1', endpoint });
  const filler = 'x'.repeat(900);
  let n = 0;
  const run = async (total: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next += 25;
          let requests = Array.from({ length: 25 }, () => ({ PutRequest: { Item: { PK: 'FLOOR#batch', SK: `b${n++}`, filler } } }));
          while (requests.length) {
            const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
            requests = (out.UnprocessedItems?.[table] ?? []) as typeof requests;
          }
        }
      }),
    );
  };
  await run(200);
  const started = performance.now();
  await run(count);
  return round(count / ((performance.now() - started) / 1000));
}

/** A bare keep-alive POST of a delivery-sized body to the receiver, one at a time: its p50. */
async function httpFloor(url: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ id: 'x'.repeat(24), type: EVENT_TYPE, amount: 1000 });
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const request = httpRequest(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'x-service-event-id': 'floor' } },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  for (let i = 0; i < 50; i++) await once();
  const latencies: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    await once();
    latencies.push(performance.now() - t);
  }
  agent.destroy();
  return spread(latencies).p50;
}

/**
 * Webhook delivery end to end on the local runtime: events written to the outbox, through the
 * stream, the bus, the fan-out, the queue and the signed HTTP attempt, to a receiver on 127.0.0.1,
 * until every attempt record is written (the clock stops when the runtime is idle again and the
 * log holds one record per event). Two loads after a warm-up:
 * - burst: every event committed at once, for throughput and capacity units per delivery;
 * - paced: events committed at a steady rate under the delivery rate, for the latency from commit
 *   to the first attempt without queueing.
 * Beside them, floors from the same DynamoDB Local and receiver: a bare PutItem rate (and the
 * store's ceiling for deliveries it implies), a bare PutItem and a bare POST.
 */
export async function benchWebhooks(
  options: { events?: number; pacedEvents?: number; pacePerSecond?: number; timeoutMs?: number } = {},
): Promise<WebhookFigures> {
  const total = options.events ?? Number(process.env.BENCH_WEBHOOK_EVENTS ?? 600);
  const pacedTotal = options.pacedEvents ?? Number(process.env.BENCH_WEBHOOK_PACED_EVENTS ?? 600);
  const loadStart = os.loadavg().map((l) => round(l, 2));
  const requests = countRequests();
  /** Deliveries before anything is measured: DynamoDB Local's JVM and the runtime compile their hot paths meanwhile. */
  const warmup = Number(process.env.BENCH_WEBHOOK_WARMUP ?? 300);
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
    if (id !== 'floor' && !arrivals.has(id)) arrivals.set(id, performance.now());
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    request.resume();
    request.on('end', () => {
      inFlight--;
      response.writeHead(200).end();
      if (expected && arrivals.size >= expected) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

  let ownDynamo: DynamoDbLocalProcess | undefined;
  if (!process.env.BENCH_DYNAMODB_ENDPOINT) ownDynamo = await startDynamoDbLocal();
  const dynamoEndpoint = process.env.BENCH_DYNAMODB_ENDPOINT ?? ownDynamo!.endpoint;
  const runtime = await startLocalRuntime({ port: 0, memory: true, dynamoEndpoint, tableName: `bench_wh_${randomHex(6)}`, allowLoopbackWebhooks: true });
  try {
    const account = (await (
      await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as { accountId: string; testKey: string };
    const scope = { accountId: account.accountId, mode: 'test' as const };

    const commits = new Map<string, number>();
    let sequence = 0;
    /** Commits `count` events in transactions of up to 25. */
    const commit = async (count: number) => {
      const writes: Promise<void>[] = [];
      for (let left = count; left > 0; left -= 25) {
        const events = Array.from({ length: Math.min(25, left) }, () => {
          const i = sequence++;
          return newEvent(scope, runtime.clock, EVENT_TYPE, { paymentIntent: { id: `pi${i}` }, amount: 1000 + i, metadata: {} });
        });
        writes.push(
          runtime.deps.store.transact(events.map(outboxPut)).then(() => {
            for (const e of events) commits.set(e.id, performance.now());
          }),
        );
      }
      await Promise.all(writes);
    };
    const waitFor = async (timeoutMs: number) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        arrived,
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`only ${arrivals.size} of ${expected} deliveries arrived in ${timeoutMs} ms`)), timeoutMs)),
        ),
      ]).finally(() => clearTimeout(timer));
      await runtime.settle();
    };
    const reset = (n: number) => {
      arrivals.clear();
      commits.clear();
      maxInFlight = 0;
      expect(n);
    };
    const latencies = () => [...arrivals.entries()].map(([id, at]) => at - (commits.get(id) ?? at));

    // The events' own writes are the caller's, not the webhook path's: measured apart, while no
    // endpoint subscribes (a capacity meter around the commit would also count the work the
    // commit wakes: the stream reader runs on in its async context).
    const beforeOwn = runtime.deps.store.totals.write;
    await commit(50);
    await runtime.settle();
    const outboxWritePerEvent = (runtime.deps.store.totals.write - beforeOwn) / 50;

    const created = await fetch(`${runtime.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, events: [EVENT_TYPE] }),
    });
    if (created.status !== 201) throw new Error(`endpoint creation failed: ${await created.text()}`);
    reset(warmup);
    await commit(warmup);
    await waitFor(60_000);

    // The floors after the warm-up, so that they and the loads below meet DynamoDB Local's JVM
    // equally warm (its JIT compiles for the first tens of seconds); the stream then reads their
    // items before the burst starts.
    const put = await putFloor(dynamoEndpoint, runtime.tableName, 1500, WORKER_CONCURRENCY);
    const batched = await batchFloor(dynamoEndpoint, runtime.tableName, 3000, 2);
    const httpP50 = await httpFloor(receiverUrl);
    await runtime.settle();

    // Burst: throughput and capacity.
    reset(total);
    const before = { ...runtime.deps.store.totals };
    const requestsBefore = requests.snapshot();
    const started = performance.now();
    await commit(total);
    await waitFor(options.timeoutMs ?? 180_000);
    const seconds = (performance.now() - started) / 1000;
    const after = { ...runtime.deps.store.totals };
    const burstRequests = requestsSince(requestsBefore, requests.snapshot(), total);
    const burstEmitted = total * outboxWritePerEvent;
    const burstLatency = spread(latencies());
    const burstConcurrency = maxInFlight;
    const deliveriesPerSecond = total / seconds;

    // Paced: a steady rate under the measured delivery rate, committed every 50 ms.
    const pace = options.pacePerSecond ?? Number(process.env.BENCH_WEBHOOK_PACE ?? Math.max(10, Math.min(100, Math.floor(deliveriesPerSecond * 0.7))));
    reset(pacedTotal);
    const tickMs = 50;
    const pacedStart = performance.now();
    let committed = 0;
    const pending: Promise<void>[] = [];
    while (committed < pacedTotal) {
      const due = Math.min(pacedTotal, Math.floor(((performance.now() - pacedStart) / 1000) * pace) + 1);
      if (due > committed) {
        pending.push(commit(due - committed));
        committed = due;
      }
      await sleep(tickMs);
    }
    await Promise.all(pending);
    await waitFor(options.timeoutMs ?? 180_000);
    const paced = spread(latencies());

    // Every attempt is in the log (read after the capacity snapshot, so it does not count).
    const log = (await Promise.all(attemptPartitions(scope).map((partition) => attemptEntity.queryAll(runtime.deps.store, 'ofShard', [partition])))).flat();
    const delivered = new Set(log.filter((a) => a.status === 'success').map((a) => a.eventId)).size;
    const failed = log.filter((a) => a.status !== 'success');
    if (delivered < total + pacedTotal + warmup) throw new Error(`only ${delivered} of ${total + pacedTotal + warmup} events logged as delivered`);

    // Signing cost: a realistic body (an order.completed of about 1 KB), both signatures.
    const body = buildDeliveryBody(
      {
        id: randomHex(12),
        type: 'order.completed',
        created: 1_700_000_000,
        data: { order: { id: randomHex(12), items: Array.from({ length: 8 }, (_, k) => ({ sku: `sku-${k}`, name: 'x'.repeat(60), qty: 1 })) }, amount: 4200 },
      },
      randomHex(12),
    );
    const secret = randomHex(24);
    const rounds = 5000;
    for (let i = 0; i < 500; i++) deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e', nowMs: 1_700_000_000_000 });
    const signStart = performance.now();
    for (let i = 0; i < rounds; i++) deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e', nowMs: 1_700_000_000_000 + i });
    const signMicros = ((performance.now() - signStart) * 1000) / rounds;

    const storeCeiling = 1 / (SINGLE_WRITES / put.perSecond + (MINIMUM_WRITE - SINGLE_WRITES) / batched);
    const floorMs = put.p50 + httpP50;
    return {
      loadAverage: { start: loadStart, end: os.loadavg().map((l) => round(l, 2)) },
      floors: {
        putItemPerSecond: put.perSecond,
        putItemP50Ms: round(put.p50, 2),
        batchedItemPerSecond: batched,
        httpPostP50Ms: round(httpP50, 2),
        storeCeilingPerSecond: round(storeCeiling),
      },
      burst: {
        events: total,
        deliveriesPerSecond: round(deliveriesPerSecond),
        goalPerSecond: 120,
        ratioToStoreCeiling: round(deliveriesPerSecond / storeCeiling, 2),
        commitToAttemptMs: burstLatency,
        maxConcurrentAtReceiver: burstConcurrency,
        requestsPerDelivery: burstRequests,
        requestCeilingPerSecond: round(put.perSecond / burstRequests.total),
        ratioToRequestCeiling: round(deliveriesPerSecond / (put.perSecond / burstRequests.total), 2),
      },
      paced: {
        events: pacedTotal,
        perSecond: pace,
        commitToAttemptMs: paced,
        goalP99Ms: 250,
        floorMs: round(floorMs, 2),
        p50RatioToFloor: round(paced.p50 / floorMs),
      },
      perDelivery: {
        read: round((after.read - before.read) / total, 2),
        minimumRead: 0,
        write: round((after.write - before.write - burstEmitted) / total, 2),
        minimumWrite: MINIMUM_WRITE,
        outboxEventWrite: round(burstEmitted / total, 2),
        why: 'the claim that creates the delivery with its lease before the HTTP call (1, the price of never calling a receiver twice at once), the log entry (1: under 1 KiB, no index keys, written in a batch with the entries of concurrent attempts), moving the delivery on (1: the whole item, in the next batch of the log); no read: the endpoint comes from the per-process copy and the body rides in the message',
      },
      signMicros: round(signMicros, 2),
      failedAttempts: { count: failed.length, errors: [...new Set(failed.map((a) => a.error ?? `status ${a.statusCode}`))].slice(0, 5) },
    };
  } finally {
    await runtime.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await ownDynamo?.stop();
    requests.restore();
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
