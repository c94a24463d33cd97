import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime } from '../support/runtime';
import { createProduct } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { queueTransactional } from '../../shared/email/outbox';
import { getQueuedMail } from '../../shared/email/repository';
import { badGateway } from '../../shared/platform/errors';
import type { RenderPort } from '../../shared/platform/ports';
import { sentMails } from '../support/local';

// The render port in AWS is a function of its own (shared/adapters/aws/render.ts); when it cannot
// be reached it answers 502 RENDER_UNAVAILABLE. Here the local port fails the same way on demand:
// an API request answers the 502 and changes nothing; a worker's batch, event or message is
// retried and its mail goes out once.

let runtime: LocalRuntime;
let ctl: ApiClient;
let real: RenderPort;
let failuresLeft = 0;
let calls = 0;

beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
  real = runtime.deps.ports.render;
  const unavailable = () => badGateway('Rendering is unavailable; retry later', 'RENDER_UNAVAILABLE');
  const failing =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A) => {
      calls += 1;
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return Promise.reject(unavailable());
      }
      return call(...args);
    };
  runtime.deps.ports.render = { mailTemplate: failing(real.mailTemplate), sanitizePost: failing(real.sanitizePost), invoicePdf: failing(real.invoicePdf) };
});
afterEach(() => {
  failuresLeft = 0;
  calls = 0;
});
afterAll(async () => {
  if (runtime) runtime.deps.ports.render = real;
  await runtime?.stop();
});

const unique = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const settle = () => settleWithRetries(runtime);

describe('when rendering is unavailable', () => {
  it('a transactional send answers 502 and records nothing; sent again, it goes out once', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime);
    const to = unique('now');
    failuresLeft = 1;
    const refused = await account.test.post('/newsletters/send', { to: [to], subject: 'Receipt', html: '<p>Thanks</p>' });
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('RENDER_UNAVAILABLE');
    expect(await sentMails(runtime, to)).toEqual([]);
    expect((await account.test.get('/newsletters/posts')).body.data).toEqual([]);
    expect((await account.test.get('/newsletters/settings')).body.totalEmailsSent).toBe(0);
    const sent = await account.test.post('/newsletters/send', { to: [to], subject: 'Receipt', html: '<p>Thanks</p>' });
    expect(sent.status).toBe(200);
    expect(await sentMails(runtime, to)).toHaveLength(1);
  });

  it('a queued mail goes back to the queue, is retried by the bus, and goes out once', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const to = unique('queued');
    failuresLeft = 2;
    const queued = await queueTransactional(runtime.deps, scope, { to: [to], subject: 'Access', text: 'Hello' });
    await settle();
    expect(calls).toBe(3);
    expect(await sentMails(runtime, to)).toHaveLength(1);
    expect(await getQueuedMail(runtime.deps.store, scope, queued.id!)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it("a post's batch is released and retried by the queue, and every recipient gets the post once", { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime);
    const readers = [unique('r1'), unique('r2'), unique('r3')];
    for (const email of readers) expect((await account.test.post('/newsletters/subscribers', { email })).status).toBe(201);
    const created = await account.test.post('/newsletters/posts', { subject: 'Weekly', html: '<p>Hello</p>' });
    failuresLeft = 2;
    expect((await account.test.post(`/newsletters/posts/${created.body._id}/send`)).status).toBeLessThan(300);
    await settle();
    expect(calls).toBe(3);
    for (const email of readers) expect(await sentMails(runtime, email), email).toHaveLength(1);
    expect((await account.test.get(`/newsletters/posts/${created.body._id}`)).body).toMatchObject({ status: 'sent', sent: readers.length });
  });

  it('a member post answers 502 and is not saved', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const product = await createProduct(account, { name: 'Pass', price: 10 });
    const membership = (await account.test.post('/memberships', { name: 'Readers', productIds: [product._id], productBuyersJoin: true })).body;
    failuresLeft = 1;
    const refused = await account.test.post(`/memberships/${membership._id}/posts`, { title: 'Notes', html: '<p>Hi</p>' });
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('RENDER_UNAVAILABLE');
    expect((await account.test.get(`/memberships/${membership._id}/posts`)).body.data).toEqual([]);
    const saved = await account.test.post(`/memberships/${membership._id}/posts`, { title: 'Notes', html: '<p onclick="x()">Hi</p>' });
    expect(saved.status).toBe(201);
    expect(saved.body.html).toBe('<p>Hi</p>');
  });
});
