import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { newEvent, outboxPut } from '../../shared/platform/events';
import { randomHex } from '../../shared/platform/ids';
import { startLocalRuntime } from '../../shared/local/runtime';
import { buildDeliveryBody } from '../../shared/webhooks/payload';
import { deliveryHeaders } from '../../shared/webhooks/signing';

/**
 * Webhook throughput end to end on the local runtime: N events written to the outbox, through
 * the stream, the bus, the fan-out, the queue and the signed HTTP attempt, to a receiver on
 * 127.0.0.1 that counts them. Also the cost of signing one delivery (both signatures).
 */
export async function benchWebhooks(options: { events?: number; timeoutMs?: number } = {}): Promise<{ deliveriesPerSecond: number; signMicros: number }> {
  const total = options.events ?? 300;
  const seen = new Set<string>();
  let allArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (allArrived = resolve));
  const receiver = createServer((request, response) => {
    const id = String(request.headers['x-service-event-id'] ?? '');
    request.resume();
    request.on('end', () => {
      response.writeHead(200).end();
      seen.add(id);
      if (seen.size >= total) allArrived();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

  const runtime = await startLocalRuntime({
    port: 0,
    memory: true,
    dynamoEndpoint: process.env.BENCH_DYNAMODB_ENDPOINT,
    tableName: `bench_wh_${randomHex(6)}`,
    allowLoopbackWebhooks: true,
  });
  try {
    const account = (await (await fetch(`${runtime.url}/_local/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { accountId: string; testKey: string };
    const created = await fetch(`${runtime.url}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiverUrl, events: ['order.completed'] }),
    });
    if (created.status !== 201) throw new Error(`endpoint creation failed: ${await created.text()}`);

    const scope = { accountId: account.accountId, mode: 'test' as const };
    const started = performance.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < total; i += 25) {
      const batch = Array.from({ length: Math.min(25, total - i) }, (_, j) =>
        outboxPut(newEvent(scope, runtime.clock, 'order.completed', { order: { id: `sale${i + j}` }, amount: 1000 + i + j, metadata: {} })),
      );
      writes.push(runtime.deps.store.transact(batch));
    }
    await Promise.all(writes);
    const timeoutMs = options.timeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      arrived,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`only ${seen.size} of ${total} deliveries arrived in ${timeoutMs} ms`)), timeoutMs))),
    ]).finally(() => clearTimeout(timer));
    const seconds = (performance.now() - started) / 1000;

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

    return { deliveriesPerSecond: Math.round((total / seconds) * 10) / 10, signMicros: Math.round(signMicros * 100) / 100 };
  } finally {
    await runtime.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
}
