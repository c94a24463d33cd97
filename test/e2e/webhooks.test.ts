import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent, outboxPut } from '../../shared/platform/events';
import type { LocalRuntime } from '../../shared/local/runtime';
import type { Mode } from '../../shared/store/keys';
import { createTestAccount, settleWithRetries, startTestRuntime, type ApiClient, type TestAccount } from '../support/runtime';
import { createOffer, createProduct, events, openCheckout, pay } from '../support/commerce';
import { helperVerified, independentlyVerified, startReceiver, waitFor } from './webhooks-receiver';

let runtime: LocalRuntime;
let owner: TestAccount;
let stranger: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  [owner, stranger, receiver] = await Promise.all([createTestAccount(runtime), createTestAccount(runtime), startReceiver()]);
});
afterAll(async () => {
  await receiver?.close();
  await runtime?.stop();
});

async function createEndpoint(client: ApiClient, path: string, events: string[], extra: Record<string, unknown> = {}) {
  const created = await client.post('/webhooks', { url: `${receiver.url}${path}`, events, ...extra });
  expect(created.status, created.text).toBe(201);
  return created.body as { id: string; secret: string; url: string; events: string[]; active: boolean };
}

/** A real domain event, written to the outbox as a capability does; the stream dispatches it. */
async function emit(accountId: string, mode: Mode, type: string, data: Record<string, unknown>) {
  const event = newEvent({ accountId, mode }, runtime.clock, type, data);
  await runtime.deps.store.transact([outboxPut(event)]);
  return event;
}

const settle = () => settleWithRetries(runtime);

describe('endpoint management', () => {
  it('creates an endpoint, shows the 48-hex secret only once, lists and reads it without the secret', async () => {
    const created = await createEndpoint(owner.test, '/crud', ['order.completed', 'product.created', 'order.completed'], { description: 'orders' });
    expect(created.secret).toMatch(/^[0-9a-f]{48}$/);
    expect(created).toMatchObject({ events: ['order.completed', 'product.created'], active: true, description: 'orders' });
    const read = await owner.test.get(`/webhooks/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.text).not.toContain(created.secret);
    const list = await owner.test.get('/webhooks');
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(list.text).not.toContain(created.secret);
    expect(list.text).not.toContain('secretCiphertext');
    // The endpoint belongs to its mode: the live key does not see it.
    expect((await owner.live.get(`/webhooks/${created.id}`)).status).toBe(404);
    expect((await owner.live.get('/webhooks')).body.webhooks).toEqual([]);
  });

  it('updates and deletes; a deleted endpoint answers 404', async () => {
    const created = await createEndpoint(owner.test, '/crud2', ['order.completed']);
    const patched = await owner.test.patch(`/webhooks/${created.id}`, { events: ['order.refunded'], active: false, description: null });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ events: ['order.refunded'], active: false, description: null });
    expect((await owner.test.patch(`/webhooks/${created.id}`, {})).status).toBe(400);
    const badUrl = await owner.test.patch(`/webhooks/${created.id}`, { url: 'https://[::ffff:10.0.0.1]/x' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toMatchObject({ field: 'url', code: 'INVALID_WEBHOOK_URL' });
    const badEvents = await owner.test.patch(`/webhooks/${created.id}`, { events: ['order.refunded', 'nope'] });
    expect(badEvents.body).toMatchObject({ field: 'events', code: 'UNKNOWN_EVENT_TYPE' });
    expect((await owner.test.get(`/webhooks/${created.id}`)).body).toMatchObject({ url: created.url, events: ['order.refunded'] });
    const deleted = await owner.test.delete(`/webhooks/${created.id}`);
    expect(deleted.body).toEqual({ id: created.id, deleted: true });
    expect((await owner.test.get(`/webhooks/${created.id}`)).status).toBe(404);
    expect((await owner.test.delete(`/webhooks/${created.id}`)).status).toBe(404);
  });

  it('refuses bad input with a 400 naming the field and the reason, and creates nothing', async () => {
    const before = (await owner.live.get('/webhooks')).body.webhooks.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ url: 'http://example.com/hook', events: ['order.completed'] }, 'url', /https/],
      // (this runtime allows loopback for its own receivers; the strict policy is unit-tested)
      [{ url: 'https://2852039166/hook', events: ['order.completed'] }, 'url', /metadata/],
      [{ url: 'https://0x0a000001/hook', events: ['order.completed'] }, 'url', /private/],
      [{ url: 'https://012.0.0.1/hook', events: ['order.completed'] }, 'url', /private/],
      [{ url: 'https://192.168.1/hook', events: ['order.completed'] }, 'url', /private/],
      [{ url: 'https://169.254.169.254/latest', events: ['order.completed'] }, 'url', /metadata/],
      [{ url: 'https://10.1.2.3/hook', events: ['order.completed'] }, 'url', /private/],
      [{ url: 'https://100.64.0.1/hook', events: ['order.completed'] }, 'url', /carrier-grade/],
      [{ url: 'https://[::ffff:127.0.0.1]/hook', events: ['order.completed'] }, 'url', /IPv4-mapped/],
      [{ url: 'https://[fd00::1]/hook', events: ['order.completed'] }, 'url', /unique-local/],
      [{ url: 'https://[fe80::1]/hook', events: ['order.completed'] }, 'url', /link-local/],
      [{ url: 'http://10.0.0.5:8080/hook', events: ['order.completed'] }, 'url', /https/],
      [{ url: 'https://example.com/hook', events: ['order.shipped'] }, 'events', /order\.shipped/],
      [{ url: 'https://example.com/hook', events: [] }, 'events', /at least one/],
      [{ url: 'https://example.com/hook' }, 'events', /./],
      [{ events: ['order.completed'] }, 'url', /./],
    ];
    for (const [body, field, reason] of cases) {
      const response = await owner.live.post('/webhooks', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.field, JSON.stringify(body)).toBe(field);
      expect(response.body.error, JSON.stringify(body)).toMatch(reason);
    }
    expect((await owner.live.get('/webhooks')).body.webhooks.length).toBe(before);
  });

  it('accepts every catalog type of both specs and the reserved identity types', async () => {
    const events = [
      'customer.subscription.trial_will_end',
      'credit.auto_refill.failed',
      'member.joined',
      'funnel.lead',
      'usage.period_closed',
      'subscription.saved',
      'identity.verification_session.verified',
      'identity.verification_session.requires_input',
    ];
    const created = await owner.live.post('/webhooks', { url: 'https://hooks.example.com/x', events });
    expect(created.status, created.text).toBe(201);
    expect(created.body.events).toEqual(events);
    await owner.live.delete(`/webhooks/${created.body.id}`);
  });
});

describe('deliveries', () => {
  it('sends a signed test delivery carrying test: true, body in envelope order, and logs it', async () => {
    const endpoint = await createEndpoint(owner.test, '/test-delivery', ['product.created']);
    const sent = await owner.test.post(`/webhooks/${endpoint.id}/test`, {});
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({ webhookId: endpoint.id, type: 'product.created', test: true });
    const [got] = await waitFor(() => (receiver.received('/test-delivery').length ? receiver.received('/test-delivery') : undefined));
    expect(independentlyVerified(got!, endpoint.secret)).toBe(true);
    expect(helperVerified(got!, endpoint.secret)).toBe(true);
    const body = JSON.parse(got!.body);
    expect(Object.keys(body)[0]).toBe('id');
    expect(Object.keys(body).slice(0, 3)).toEqual(['id', 'type', 'created']);
    expect(Object.keys(body).slice(-2)).toEqual(['webhookId', 'test']);
    expect(body).toMatchObject({ id: sent.body.eventId, type: 'product.created', webhookId: endpoint.id, test: true });
    expect(got!.headers['x-service-event']).toBe('product.created');
    expect(got!.headers['x-service-event-id']).toBe(sent.body.eventId);
    expect(Math.abs(Number(got!.headers['x-service-timestamp']) - Date.now())).toBeLessThan(10_000);
    expect(got!.headers['content-type']).toBe('application/json');

    const log = await waitFor(async () => {
      const page = await owner.test.get(`/delivered-webhooks?eventId=${sent.body.eventId}`);
      return page.body.deliveries?.length ? page.body.deliveries : undefined;
    });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      webhookId: endpoint.id,
      eventId: sent.body.eventId,
      eventType: 'product.created',
      attempt: 1,
      status: 'success',
      statusCode: 200,
      error: null,
      test: true,
      requestBody: got!.body,
    });
    expect(log[0].requestHeaders['X-Service-Signature-V2']).toBe(got!.headers['x-service-signature-v2']);
    expect(log[0].responseBodyExcerpt).toBe('{"received":true}');
    expect(Date.parse(log[0].expiresAt) - Date.parse(log[0].createdAt)).toBe(30 * 24 * 3600 * 1000);
  });

  it('a test delivery of a type carries the same fields a real event of that type carries', async () => {
    const product = await createProduct(owner, { name: 'Shape check', price: 12 });
    const offer = await createOffer(owner, { name: 'Shape club', price: 9, frequency: 'monthly' });
    await pay(runtime, (await openCheckout(owner, product._id)).id, { email: 'shape@example.com', firstName: 'Ann', lastName: 'Lee', country: 'US' });
    await pay(runtime, (await openCheckout(owner, offer._id)).id, { email: 'shape@example.com', firstName: 'Ann', lastName: 'Lee', country: 'US' });
    const real = await events(runtime, owner);
    const types = [
      'order.completed',
      'customer.created',
      'product.created',
      'invoice.payment_succeeded',
      'customer.subscription.created',
      'payment_intent.succeeded',
    ];
    const endpoint = await createEndpoint(owner.test, '/samples', types);
    // Every key path of a payload, so a sample missing a nested field fails too.
    const paths = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.entries(value).flatMap(([k, v]) => [`${prefix}${k}`, ...paths(v, `${prefix}${k}.`)])
        : [];
    for (const type of types) {
      const sent = await owner.test.post(`/webhooks/${endpoint.id}/test`, { type });
      expect(sent.status, sent.text).toBe(202);
    }
    const got = await waitFor(() => (receiver.received('/samples').length === types.length ? receiver.received('/samples') : undefined));
    for (const type of types) {
      // The event's data fields sit beside the envelope (id, type, created, webhookId, test).
      const { id: _id, type: _type, created: _created, webhookId: _webhook, test, ...data } = got.map((g) => JSON.parse(g.body)).find((b) => b.type === type);
      expect(test).toBe(true);
      const actual = real.find((e) => e.type === type);
      expect(actual, type).toBeDefined();
      // Every field the real event carries, nested ones too (the sample may fill an optional block
      // the real one left null, such as a discount).
      expect(paths(data), type).toEqual(expect.arrayContaining(paths(actual!.data)));
      expect(Object.keys(data).sort(), type).toEqual(Object.keys(actual!.data).sort());
    }
    const reserved = await owner.test.post(`/webhooks/${endpoint.id}/test`, { type: 'identity.verification_session.verified' });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toMatchObject({ code: 'NO_SAMPLE_FOR_TYPE', field: 'type' });
  });

  it('delivers real outbox events to subscribed endpoints of the same mode only; inactive and reserved get nothing', async () => {
    const testEndpoint = await createEndpoint(owner.test, '/mode-test', ['product.created', 'identity.verification_session.verified']);
    const liveEndpoint = await createEndpoint(owner.live, '/mode-live', ['product.created']);
    await createEndpoint(owner.test, '/inactive', ['product.created'], { active: false });
    await createEndpoint(owner.test, '/other-type', ['order.completed']);
    await createEndpoint(stranger.test, '/stranger', ['product.created']);
    const testEvent = await emit(owner.accountId, 'test', 'product.created', { _id: 'p1', name: 'Test product', price: 10 });
    const liveEvent = await emit(owner.accountId, 'live', 'product.created', { _id: 'p2', name: 'Live product', price: 20 });
    await emit(owner.accountId, 'test', 'identity.verification_session.verified', { session: 's1' });
    await settle();
    const toTest = receiver.received('/mode-test');
    const toLive = receiver.received('/mode-live');
    expect(toTest.map((r) => JSON.parse(r.body).id)).toEqual([testEvent.id]);
    expect(toLive.map((r) => JSON.parse(r.body).id)).toEqual([liveEvent.id]);
    expect(JSON.parse(toTest[0]!.body)).toEqual({
      id: testEvent.id,
      type: 'product.created',
      created: testEvent.created,
      _id: 'p1',
      name: 'Test product',
      price: 10,
      webhookId: testEndpoint.id,
    });
    expect(JSON.parse(toTest[0]!.body).test).toBeUndefined();
    expect(independentlyVerified(toTest[0]!, testEndpoint.secret)).toBe(true);
    expect(independentlyVerified(toLive[0]!, liveEndpoint.secret)).toBe(true);
    expect(independentlyVerified(toLive[0]!, testEndpoint.secret)).toBe(false);
    expect(receiver.received('/inactive')).toEqual([]);
    expect(receiver.received('/other-type')).toEqual([]);
    expect(receiver.received('/stranger')).toEqual([]);
  });

  it('rotation: the new secret signs at once and the old one stops working', async () => {
    const endpoint = await createEndpoint(owner.test, '/rotate', ['order.completed']);
    const rotated = await owner.test.post(`/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.secret).toMatch(/^[0-9a-f]{48}$/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect((await owner.test.get(`/webhooks/${endpoint.id}`)).body.secret).toBeUndefined();
    await owner.test.post(`/webhooks/${endpoint.id}/test`);
    const [got] = await waitFor(() => (receiver.received('/rotate').length ? receiver.received('/rotate') : undefined));
    expect(independentlyVerified(got!, rotated.body.secret)).toBe(true);
    expect(independentlyVerified(got!, endpoint.secret)).toBe(false);
    expect(helperVerified(got!, endpoint.secret)).toBe(false);
  });

  it('redelivers a logged delivery with the same event id and body, as a new attempt chain', async () => {
    const endpoint = await createEndpoint(owner.test, '/redeliver', ['order.completed']);
    const event = await emit(owner.accountId, 'test', 'order.completed', { order: { id: 'sale1' }, amount: 1200 });
    await settle();
    const first = (await owner.test.get(`/delivered-webhooks?eventId=${event.id}&webhookId=${endpoint.id}`)).body.deliveries[0];
    const replay = await owner.test.post(`/delivered-webhooks/${first.id}/redeliver`);
    expect(replay.status, replay.text).toBe(202);
    expect(replay.body).toMatchObject({ eventId: event.id, webhookId: endpoint.id });
    const got = await waitFor(() => (receiver.received('/redeliver').length === 2 ? receiver.received('/redeliver') : undefined));
    expect(got[0]!.body).toBe(got[1]!.body);
    expect(got.map((r) => r.headers['x-service-event-id'])).toEqual([event.id, event.id]);
    expect(independentlyVerified(got[1]!, endpoint.secret)).toBe(true);
    const log = await waitFor(async () => {
      const response = await owner.test.get(`/delivered-webhooks?eventId=${event.id}&webhookId=${endpoint.id}`);
      const page = response.body.deliveries;
      return page?.length === 2 ? page : undefined;
    });
    expect(log[0]).toMatchObject({ eventId: event.id, attempt: 1, redelivery: true, status: 'success' });
    expect(log[0].deliveryId).not.toBe(log[1].deliveryId);
  });

  it('filters and pages the delivery log', async () => {
    const endpoint = await createEndpoint(owner.live, '/log', ['order.completed', 'order.refunded']);
    receiver.on('/log', (request, _count, response) => {
      const type = JSON.parse(request.body).type;
      response.writeHead(type === 'order.refunded' ? 400 : 200).end();
    });
    await emit(owner.accountId, 'live', 'order.completed', { n: 1 });
    await emit(owner.accountId, 'live', 'order.completed', { n: 2 });
    await emit(owner.accountId, 'live', 'order.refunded', { n: 3 });
    await settle();
    const all = (await owner.live.get(`/delivered-webhooks?webhookId=${endpoint.id}`)).body;
    expect(all.deliveries).toHaveLength(3);
    expect(all.hasMore).toBe(false);
    const failed = (await owner.live.get(`/delivered-webhooks?webhookId=${endpoint.id}&status=failed`)).body.deliveries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ eventType: 'order.refunded', statusCode: 400, status: 'failed', willRetry: false });
    const completed = (await owner.live.get(`/delivered-webhooks?eventType=order.completed&status=success`)).body.deliveries;
    expect(completed.filter((d: { webhookId: string }) => d.webhookId === endpoint.id)).toHaveLength(2);
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = (await owner.live.get(`/delivered-webhooks?webhookId=${endpoint.id}&limit=1${after ? `&after=${after}` : ''}`)).body;
      seen.push(...page.deliveries.map((d: { id: string }) => d.id));
      if (!page.hasMore) break;
      after = page.next;
    }
    expect(seen).toEqual(all.deliveries.map((d: { id: string }) => d.id));
    expect((await owner.live.get('/delivered-webhooks?limit=0')).status).toBe(400);
    expect((await owner.live.get('/delivered-webhooks?status=maybe')).body.field).toBe('status');
    expect((await owner.live.get('/delivered-webhooks?after=nope')).body.field).toBe('after');
  });
});

describe('isolation', () => {
  it('another account, or the other mode, never sees or touches an endpoint or its log: 404', async () => {
    const endpoint = await createEndpoint(owner.test, '/private', ['order.completed']);
    await owner.test.post(`/webhooks/${endpoint.id}/test`);
    const entry = await waitFor(async () => (await owner.test.get(`/delivered-webhooks?webhookId=${endpoint.id}`)).body.deliveries?.[0]);
    for (const client of [stranger.test, stranger.live, owner.live]) {
      expect((await client.get(`/webhooks/${endpoint.id}`)).status).toBe(404);
      expect((await client.patch(`/webhooks/${endpoint.id}`, { active: false })).status).toBe(404);
      expect((await client.post(`/webhooks/${endpoint.id}/test`)).status).toBe(404);
      expect((await client.post(`/webhooks/${endpoint.id}/rotate-secret`)).status).toBe(404);
      expect((await client.delete(`/webhooks/${endpoint.id}`)).status).toBe(404);
      expect((await client.post(`/delivered-webhooks/${entry.id}/redeliver`)).status).toBe(404);
      const log = await client.get(`/delivered-webhooks?webhookId=${endpoint.id}`);
      expect(log.body.deliveries).toEqual([]);
      const everything = await client.get('/delivered-webhooks?limit=100');
      expect(everything.text).not.toContain(endpoint.id);
      expect((await client.get('/webhooks')).text).not.toContain(endpoint.id);
    }
    const still = await owner.test.get(`/webhooks/${endpoint.id}`);
    expect(still.body.active).toBe(true);
  });

  it('a test or a redelivery to an inactive endpoint is refused with 409', async () => {
    const endpoint = await createEndpoint(owner.test, '/off', ['order.completed'], { active: false });
    const refused = await owner.test.post(`/webhooks/${endpoint.id}/test`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('WEBHOOK_INACTIVE');
    expect((await owner.test.post(`/webhooks/${endpoint.id}/test`, { type: 'no.such' })).status).toBe(409);
    await owner.test.patch(`/webhooks/${endpoint.id}`, { active: true });
    const badType = await owner.test.post(`/webhooks/${endpoint.id}/test`, { type: 'no.such' });
    expect(badType.status).toBe(400);
    expect(badType.body.field).toBe('type');
  });
});
