import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuePort } from '../../shared/platform/ports';
import { newEvent } from '../../shared/platform/events';
import type { OperationContext } from '../../shared/platform/context';
import type { Scope } from '../../shared/store/keys';
import { fanOutDeliveryId, fanOutEvent, newDelivery } from '../../shared/webhooks/delivery';
import { buildDeliveryBody } from '../../shared/webhooks/payload';
import * as repo from '../../shared/webhooks/repository';
import { createWebhook, updateWebhook } from '../../shared/webhooks/service';
import { createTestDeps } from '../support/store';
import { independentlyVerified, startReceiver } from '../e2e/webhooks-receiver';

// The local bus retries a throwing consumer and the local queue redelivers a message whose handler
// threw, as EventBridge and SQS do. A crash is a throw at the worst moment; recovery must come
// from those retries alone, and nothing may be lost or sent twice.

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

async function endpointFor(path: string) {
  const scope: Scope = { accountId: `acct${++n}`, mode: 'test' };
  const endpoint = await createWebhook(context(scope), { url: `${receiver.url}${path}`, events: ['order.completed'] });
  return { scope, endpoint };
}

/** Makes queue sends throw once when `when` matches: the process "dies" at that point. */
function crashQueueOnce(when: (message: Record<string, unknown>) => boolean) {
  let crashed = 0;
  setup.deps.ports.queue = {
    send: async (queue, message, options) => {
      if (!crashed && when(message)) {
        crashed++;
        throw new Error('simulated crash before the message was sent');
      }
      return realQueue.send(queue, message, options);
    },
  };
  return () => crashed;
}

/** Idle, and still idle a moment later (a retry timer hands over its work slot in between). */
async function idle() {
  for (;;) {
    await setup.adapters.work.idle();
    await new Promise((r) => setTimeout(r, 20));
    if (!setup.adapters.work.busy) return;
  }
}

describe('crash recovery', () => {
  it('fan-out dies before enqueueing: the bus retry sends it, once', async () => {
    const { scope, endpoint } = await endpointFor('/crash-fanout');
    const crashes = crashQueueOnce(() => true);
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 1 });
    await setup.adapters.bus.publish([event]);
    await idle();
    setup.deps.ports.queue = realQueue;
    expect(crashes()).toBe(1);
    const got = receiver.received('/crash-fanout');
    expect(got).toHaveLength(1);
    expect(JSON.parse(got[0]!.body).id).toBe(event.id);
    expect(independentlyVerified(got[0]!, endpoint.secret)).toBe(true);
    const delivery = await repo.getDelivery(setup.store, scope, fanOutDeliveryId(event.id, endpoint.id));
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect((await repo.listAttempts(setup.store, scope, { webhookId: endpoint.id }, 10)).items).toHaveLength(1);
  });

  it('delivery worker dies after logging a failed attempt, before queueing the retry: the redelivered message queues it', async () => {
    receiver.on('/crash-retry', (_req, count, res) => void res.writeHead(count === 1 ? 503 : 200).end());
    const { scope, endpoint } = await endpointFor('/crash-retry');
    const crashes = crashQueueOnce((message) => message.attempt === 2);
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 2 });
    await setup.adapters.bus.publish([event]);
    await idle();
    setup.deps.ports.queue = realQueue;
    expect(crashes()).toBe(1);
    expect(receiver.received('/crash-retry')).toHaveLength(2);
    const log = (await repo.listAttempts(setup.store, scope, { webhookId: endpoint.id }, 10)).items.reverse();
    expect(log.map((a) => [a.attempt, a.status, a.statusCode, a.eventId])).toEqual([
      [1, 'failed', 503, event.id],
      [2, 'success', 200, event.id],
    ]);
    expect(await repo.getDelivery(setup.store, scope, fanOutDeliveryId(event.id, endpoint.id))).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(setup.adapters.queue.deadLetters).toEqual([]);
  });

  it('delivery worker throws before sending (secret not readable yet): the queue redelivers and it is sent once', async () => {
    const { scope, endpoint } = await endpointFor('/crash-decrypt');
    const encryption = setup.deps.ports.encryption;
    let failures = 0;
    setup.deps.ports.encryption = {
      encrypt: (text, ctx) => encryption.encrypt(text, ctx),
      decrypt: (text, ctx) => (failures++ === 0 ? Promise.reject(new Error('KMS throttled')) : encryption.decrypt(text, ctx)),
    };
    try {
      await setup.adapters.bus.publish([newEvent(scope, setup.clock, 'order.completed', { amount: 3 })]);
      await idle();
    } finally {
      setup.deps.ports.encryption = encryption;
    }
    expect(failures).toBe(2);
    expect(receiver.received('/crash-decrypt')).toHaveLength(1);
    expect((await repo.listAttempts(setup.store, scope, { webhookId: endpoint.id }, 10)).items).toHaveLength(1);
  });

  it('duplicates are dropped: the same event twice on the bus, and the same queue message again', async () => {
    const { scope, endpoint } = await endpointFor('/dupes');
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 4 });
    await setup.adapters.bus.publish([event, event]);
    await fanOutEvent(setup.deps, event);
    await idle();
    await realQueue.send('webhooks', { scope, deliveryId: fanOutDeliveryId(event.id, endpoint.id), attempt: 1 });
    await idle();
    expect(receiver.received('/dupes')).toHaveLength(1);
    expect((await repo.listAttempts(setup.store, scope, { webhookId: endpoint.id }, 10)).items).toHaveLength(1);
  });

  it('a worker that died holding an attempt does not block it: its claim lapses and the redelivered message sends it', async () => {
    const { scope, endpoint } = await endpointFor('/lapsed');
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 6 });
    const deliveryId = fanOutDeliveryId(event.id, endpoint.id);
    await repo.createDelivery(
      setup.store,
      scope,
      newDelivery(setup.deps, {
        id: deliveryId,
        webhookId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        body: buildDeliveryBody(event, endpoint.id),
        test: false,
        redelivery: false,
      }),
    );
    // The dead worker claimed attempt 1 a minute ago and never came back.
    expect(await repo.claimAttempt(setup.store, scope, deliveryId, 1, 'a1', setup.clock.nowMs() - 60_000, 20_000)).toMatchObject({ id: deliveryId });
    // A live claim is respected...
    expect(await repo.claimAttempt(setup.store, scope, deliveryId, 1, 'a1', setup.clock.nowMs() - 50_000, 20_000)).toBeUndefined();
    await realQueue.send('webhooks', { scope, deliveryId, attempt: 1 });
    await idle();
    expect(receiver.received('/lapsed')).toHaveLength(1);
    expect(await repo.getDelivery(setup.store, scope, deliveryId)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('a pending retry stops when the endpoint is turned off', async () => {
    receiver.on('/switched-off', (_req, _count, res) => void res.writeHead(500).end());
    const { scope, endpoint } = await endpointFor('/switched-off');
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 5 });
    await fanOutEvent(setup.deps, event);
    const deliveryId = fanOutDeliveryId(event.id, endpoint.id);
    for (let i = 0; i < 100 && ((await repo.getDelivery(setup.store, scope, deliveryId))?.attempts ?? 0) < 1; i++) await new Promise((r) => setTimeout(r, 20));
    await updateWebhook(context(scope), endpoint.id, { active: false });
    await idle();
    expect(receiver.received('/switched-off')).toHaveLength(1);
    expect(await repo.getDelivery(setup.store, scope, deliveryId)).toMatchObject({ status: 'canceled', attempts: 1 });
  });

  it('keeps the secret encrypted at rest, bound to its endpoint', async () => {
    const { scope, endpoint } = await endpointFor('/at-rest');
    const stored = await repo.getEndpoint(setup.store, scope, endpoint.id);
    expect(JSON.stringify(stored)).not.toContain(endpoint.secret);
    const other = await endpointFor('/at-rest-2');
    const context = (id: string) => ({ purpose: 'webhook-secret', accountId: scope.accountId, mode: scope.mode, webhookId: id });
    expect(await setup.deps.ports.encryption.decrypt(stored!.secretCiphertext, context(endpoint.id))).toBe(endpoint.secret);
    await expect(setup.deps.ports.encryption.decrypt(stored!.secretCiphertext, context(other.endpoint.id))).rejects.toThrow();
  });
});

describe('claim that creates the delivery (the fan-out writes nothing to the table)', () => {
  it('creates the record once with the claim; a second copy meets the live claim; a record already there is claimed as it is', async () => {
    const { scope, endpoint } = await endpointFor('/claim-create');
    const event = newEvent(scope, setup.clock, 'order.completed', { amount: 7 });
    const deliveryId = fanOutDeliveryId(event.id, endpoint.id);
    const record = newDelivery(setup.deps, {
      id: deliveryId,
      webhookId: endpoint.id,
      eventId: event.id,
      eventType: event.type,
      body: buildDeliveryBody(event, endpoint.id),
      test: false,
      redelivery: false,
    });
    expect(await repo.getDelivery(setup.store, scope, deliveryId)).toBeUndefined();
    const now = setup.clock.nowMs();
    expect(await repo.claimAttempt(setup.store, scope, deliveryId, 1, 'a1', now, 20_000, record)).toMatchObject({
      id: deliveryId,
      body: record.body,
      status: 'pending',
      attempts: 0,
    });
    expect(await repo.claimAttempt(setup.store, scope, deliveryId, 1, 'a1', now, 20_000, record)).toBeUndefined();
    // Without the record, a claim never creates one.
    expect(await repo.claimAttempt(setup.store, scope, `${deliveryId}x`, 1, 'a1', now, 20_000)).toBeUndefined();
    expect(await repo.getDelivery(setup.store, scope, `${deliveryId}x`)).toBeUndefined();
    // Once the attempt is recorded, a late fan-out copy can neither claim nor reset it.
    await repo.recordAttempt(
      setup.store,
      scope,
      {
        id: `att${deliveryId}`,
        deliveryId,
        webhookId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        attempt: 1,
        status: 'success',
        statusCode: 200,
        durationMs: 1,
        error: null,
        url: endpoint.url,
        finalUrl: endpoint.url,
        redirects: 0,
        requestHeaders: {},
        requestBody: record.body!,
        responseBodyExcerpt: null,
        willRetry: false,
        nextAttemptAt: null,
        test: false,
        redelivery: false,
        createdAt: record.createdAt,
      },
      { status: 'succeeded', nextAttemptAt: null, updatedAt: record.createdAt },
    );
    expect(await repo.claimAttempt(setup.store, scope, deliveryId, 1, 'a1', now + 60_000, 20_000, record)).toBeUndefined();
    expect(await repo.getDelivery(setup.store, scope, deliveryId)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });
});
