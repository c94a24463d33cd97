import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePort } from '../../shared/platform/ports';
import { newEvent, type DomainEvent } from '../../shared/platform/events';
import type { OperationContext } from '../../shared/platform/context';
import type { Scope } from '../../shared/store/keys';
import type { CapacityMeter } from '../../shared/store/capacity';
import { fanOutDeliveryId, fanOutEvent, processDeliveryMessage } from '../../shared/webhooks/delivery';
import * as repo from '../../shared/webhooks/repository';
import { deliveryEntity } from '../../shared/webhooks/entities';
import { createWebhook, redeliver } from '../../shared/webhooks/service';
import { createTestDeps } from '../support/store';
import { startReceiver } from '../e2e/webhooks-receiver';

// The delivery log without index keys on its entries, and the 3-write success path: what the
// event filter finds through the deliveries, and what a lease takeover does after a crash.

let setup: Awaited<ReturnType<typeof createTestDeps>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let realQueue: QueuePort;
let n = 0;

beforeAll(async () => {
  [setup, receiver] = await Promise.all([createTestDeps({ WEBHOOK_ALLOW_LOOPBACK: '1' }), startReceiver()]);
  realQueue = setup.deps.ports.queue;
});
afterAll(async () => {
  setup.deps.ports.queue = realQueue;
  await receiver?.close();
});

function context(scope: Scope): OperationContext {
  return {
    ...setup.deps,
    scope,
    account: { accountId: scope.accountId, email: 'x@example.com', plan: 'free', currency: 'USD', createdAt: '2026-01-01T00:00:00.000Z' },
    request: { requestId: 'r', method: 'POST', path: '/webhooks', headers: {}, rawBody: '', sourceIp: '127.0.0.1', baseUrl: 'http://127.0.0.1' },
  };
}

const newScope = (): Scope => ({ accountId: `acctlog${++n}`, mode: 'test' });

async function idle() {
  for (;;) {
    await setup.adapters.work.idle();
    await new Promise((r) => setTimeout(r, 20));
    if (!setup.adapters.work.busy) return;
  }
}

/** Fans the event out with its queue messages kept instead of sent, so a test runs the worker itself. */
async function fanOutCaptured(event: DomainEvent): Promise<Record<string, unknown>[]> {
  const captured: Record<string, unknown>[] = [];
  setup.deps.ports.queue = { send: async (_queue, message) => void captured.push(JSON.parse(JSON.stringify(message))) };
  try {
    await fanOutEvent(setup.deps, event);
  } finally {
    setup.deps.ports.queue = realQueue;
  }
  return captured;
}

/** A tenant with one endpoint at `path` and one order.completed event fanned out to it, with the worker's first message. */
async function oneDelivery(path: string) {
  const scope = newScope();
  const endpoint = await createWebhook(context(scope), { url: `${receiver.url}${path}`, events: ['order.completed'] });
  const event = newEvent(scope, setup.clock, 'order.completed', { amount: 1 });
  const [message] = await fanOutCaptured(event);
  return { scope, endpoint, event, deliveryId: fanOutDeliveryId(event.id, endpoint.id), message: message! };
}

describe('success path', () => {
  it('costs 3 write units and no read: claim with lease, log entry under 1 KiB without index keys, delivery moved on', async () => {
    const scope = newScope();
    const endpoint = await createWebhook(context(scope), { url: `${receiver.url}/units`, events: ['payment_intent.succeeded'] });
    const captured = await fanOutCaptured(
      newEvent(scope, setup.clock, 'payment_intent.succeeded', { paymentIntent: { id: 'pi_1' }, amount: 1000, metadata: {} }),
    );
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ body: expect.any(String), create: expect.not.objectContaining({ body: expect.anything() }) });
    const meter: CapacityMeter = { read: 0, write: 0 };
    await processDeliveryMessage({ ...setup.deps, store: setup.deps.store.forRequest({ meter }) }, captured[0]!);
    expect(receiver.received('/units')).toHaveLength(1);
    expect(meter.write).toBe(3);
    // The endpoint comes from the copy the fan-out just read (a loaded machine may outlast its 1 s: one Query then).
    expect(meter.read).toBeLessThanOrEqual(0.5);
    const [entry] = (await repo.listAttempts(setup.store, scope, { webhookId: endpoint.id }, 10)).items;
    // The log entry reads back whole: the headers that were sent and the body byte for byte.
    const got = receiver.received('/units')[0]!;
    expect(entry!.requestBody).toBe(got.body);
    expect(entry!.requestHeaders['X-Service-Signature-V2']).toBe(got.headers['x-service-signature-v2']);
    expect(entry!.requestHeaders['X-Service-Signature']).toBe(got.headers['x-service-signature']);
    expect(entry!.requestHeaders['X-Service-Event-Id']).toBe(got.headers['x-service-event-id']);
    expect(entry!.finalUrl).toBe(entry!.url);
  });
});

describe('lease takeover after a crash', () => {
  it('the worker dies after logging a success, before moving the delivery on: the takeover sends once more, the event filter shows both entries, and no copy sends again after that', async () => {
    const { scope, event, deliveryId, message } = await oneDelivery('/takeover');

    // The first worker: the HTTP call and the log entry happen, then it dies before the delivery
    // moves on (a success moves it on in the log's batch after the entry's).
    const batchPut = setup.store.batchPut.bind(setup.store);
    let died = 0;
    setup.store.batchPut = (async (items, concurrency) => {
      if (!died && items.some((item) => item.SK === deliveryId)) {
        died++;
        throw new Error('simulated crash after the log entry');
      }
      return batchPut(items, concurrency);
    }) as typeof setup.store.batchPut;
    try {
      await expect(processDeliveryMessage(setup.deps, message)).rejects.toThrow('simulated crash');
    } finally {
      setup.store.batchPut = batchPut;
    }
    expect(died).toBe(1);
    expect(receiver.received('/takeover')).toHaveLength(1);

    // The redelivered message meets the live lease and leaves the attempt alone...
    await expect(processDeliveryMessage(setup.deps, message)).rejects.toThrow('in progress elsewhere');
    expect(receiver.received('/takeover')).toHaveLength(1);
    // ...and takes it over once the lease lapsed: at least once, the receiver deduplicates on the event id.
    setup.clock.advance(30);
    await processDeliveryMessage(setup.deps, message);
    expect(receiver.received('/takeover')).toHaveLength(2);
    expect(await repo.getDelivery(setup.store, scope, deliveryId)).toMatchObject({ status: 'succeeded', attempts: 1 });

    // Both attempts that really happened are in the log, the first one found through the id its claim listed.
    const ofEvent = (await repo.listAttempts(setup.store, scope, { eventId: event.id }, 10)).items;
    expect(ofEvent.map((a) => [a.attempt, a.status, a.deliveryId])).toEqual([
      [1, 'success', deliveryId],
      [1, 'success', deliveryId],
    ]);
    expect((await repo.getDelivery(setup.store, scope, deliveryId))!.attemptIds).toHaveLength(2);

    // Once the success is recorded, no copy of the message calls the receiver again, however late.
    setup.clock.advance(60);
    await processDeliveryMessage(setup.deps, message);
    await processDeliveryMessage(setup.deps, { ...message, create: undefined });
    expect(receiver.received('/takeover')).toHaveLength(2);
  });
});

describe('a success moves the delivery on without a condition', () => {
  it('a cancel that came during the call is overwritten by the truth: succeeded, the record whole, its expiry kept', async () => {
    const { scope, endpoint, event, deliveryId, message } = await oneDelivery('/cancel-during');
    receiver.on('/cancel-during', (_req, _count, res) => {
      void repo.cancelDelivery(setup.store, scope, deliveryId, setup.clock.now().toISOString()).then(() => res.writeHead(200).end());
    });
    await processDeliveryMessage(setup.deps, message);
    expect(receiver.received('/cancel-during')).toHaveLength(1);
    const delivery = await repo.getDelivery(setup.store, scope, deliveryId);
    expect(delivery).toMatchObject({
      id: deliveryId,
      webhookId: endpoint.id,
      eventId: event.id,
      eventType: 'order.completed',
      status: 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
      test: false,
      redelivery: false,
    });
    expect(delivery!.attemptIds).toHaveLength(1);
    const item = await setup.store.get(deliveryEntity.declaration.key(scope, deliveryId));
    expect(item).toMatchObject({ entity: 'WebhookDelivery', expiresAt: expect.any(Number) });
    expect(item!.attemptIds).toBeInstanceOf(Set);
    // A late copy of the message finds it done and sends nothing.
    setup.clock.advance(60);
    await processDeliveryMessage(setup.deps, message);
    expect(receiver.received('/cancel-during')).toHaveLength(1);
  });
});

describe('a worker that outlived its lease', () => {
  it('moves the delivery on with the conditional update, so a copy that took over keeps its entry in the event filter', async () => {
    const { scope, event, deliveryId, message } = await oneDelivery('/stall');
    let copy: Promise<void> | undefined;
    // The first call stalls past the lease; meanwhile a copy of the message takes the attempt over and finishes it.
    receiver.on('/stall', (_req, count, res) => {
      if (count > 1) return void res.writeHead(200).end();
      setup.clock.advance(30);
      copy = processDeliveryMessage(setup.deps, message);
      void copy.then(() => res.writeHead(200).end());
    });
    await processDeliveryMessage(setup.deps, message);
    await copy;
    expect(receiver.received('/stall')).toHaveLength(2);
    const delivery = await repo.getDelivery(setup.store, scope, deliveryId);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(delivery!.attemptIds).toHaveLength(2);
    const ofEvent = (await repo.listAttempts(setup.store, scope, { eventId: event.id }, 10)).items;
    expect(ofEvent.map((a) => [a.attempt, a.status])).toEqual([
      [1, 'success'],
      [1, 'success'],
    ]);
  });
});

describe('delivery log filters without index keys', () => {
  it('lists by event (every endpoint, retries and redeliveries), by endpoint, by status, newest first, with paging', async () => {
    const scope = newScope();
    receiver.on('/flaky', (_req, count, res) => void res.writeHead(count === 1 ? 503 : 200).end());
    const a = await createWebhook(context(scope), { url: `${receiver.url}/steady`, events: ['order.completed'] });
    const b = await createWebhook(context(scope), { url: `${receiver.url}/flaky`, events: ['order.completed'] });
    const first = newEvent(scope, setup.clock, 'order.completed', { amount: 1 });
    const second = newEvent(scope, setup.clock, 'order.completed', { amount: 2 });
    await setup.adapters.bus.publish([first]);
    await idle();
    await setup.adapters.bus.publish([second]);
    await idle();
    // A redelivery of the first event to endpoint a: a new delivery under the same event id.
    const [firstToA] = (await repo.listAttempts(setup.store, scope, { eventId: first.id, webhookId: a.id }, 10)).items;
    await redeliver(context(scope), firstToA!.id);
    await idle();

    const ofFirst = (await repo.listAttempts(setup.store, scope, { eventId: first.id }, 10)).items;
    const shown = ofFirst.map((x) => [x.webhookId, x.attempt, x.status, x.redelivery]);
    expect(shown.slice(0, 2)).toEqual([
      [a.id, 1, 'success', true],
      [b.id, 2, 'success', false],
    ]);
    // The two first attempts ran side by side: either may be the newer.
    expect(shown.slice(2)).toEqual(
      expect.arrayContaining([
        [b.id, 1, 'failed', false],
        [a.id, 1, 'success', false],
      ]),
    );
    expect(ofFirst.every((x) => x.eventId === first.id)).toBe(true);
    const ids = ofFirst.map((x) => x.id);
    expect([...ids].sort().reverse()).toEqual(ids);

    expect((await repo.listAttempts(setup.store, scope, { eventId: first.id, webhookId: b.id }, 10)).items.map((x) => x.attempt)).toEqual([2, 1]);
    expect((await repo.listAttempts(setup.store, scope, { eventId: first.id, status: 'failed' }, 10)).items.map((x) => x.webhookId)).toEqual([b.id]);
    expect((await repo.listAttempts(setup.store, scope, { eventId: second.id }, 10)).items).toHaveLength(2);
    expect((await repo.listAttempts(setup.store, scope, { eventId: 'f'.repeat(24) }, 10)).items).toEqual([]);

    // Paging through one event's entries: two pages of two, nothing repeated.
    const page1 = await repo.listAttempts(setup.store, scope, { eventId: first.id }, 2);
    const page2 = await repo.listAttempts(setup.store, scope, { eventId: first.id }, 2, page1.items.at(-1)!.id);
    expect(page1.hasMore).toBe(true);
    expect(page2.hasMore).toBe(false);
    expect([...page1.items, ...page2.items].map((x) => x.id)).toEqual(ids);

    // By endpoint: a's three (two events and the redelivery), newest first.
    const ofA = (await repo.listAttempts(setup.store, scope, { webhookId: a.id }, 10)).items;
    expect(ofA.map((x) => [x.eventId, x.redelivery])).toEqual([
      [first.id, true],
      [second.id, false],
      [first.id, false],
    ]);
    const ofB = await repo.listAttempts(setup.store, scope, { webhookId: b.id }, 1);
    expect(ofB.hasMore).toBe(true);
    expect(ofB.items[0]!.webhookId).toBe(b.id);
    expect((await repo.listAttempts(setup.store, scope, { status: 'failed' }, 10)).items.map((x) => x.webhookId)).toEqual([b.id]);
    // Everything, newest first: 3 to a, 3 to b (the flaky one failed only its first time).
    expect((await repo.listAttempts(setup.store, scope, {}, 20)).items).toHaveLength(6);
  });
});
