import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createProduct, openCheckout, pay } from '../support/commerce';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';

let runtime: LocalRuntime;
let ctl: ApiClient;
let account: TestAccount;
beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
  account = await createTestAccount(runtime, 'tier3');
});
afterAll(async () => runtime?.stop());

const ORIGIN = 'https://creator-site.example';
/** What a browser sends before a cross-origin JSON post. */
const preflight = (path: string, method = 'POST') =>
  fetch(`${runtime.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' },
  });
/** A cross-origin JSON request, as the page's fetch sends it after the preflight. */
const fromPage = (path: string, body?: unknown, method = 'POST') =>
  ctl.request(method, path, body, { origin: ORIGIN, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' });

/** A receipt token of a paid order (the permission of review submission and the survey). */
async function receiptToken() {
  const product = await createProduct(account, { name: `Guide ${Math.random().toString(36).slice(2, 6)}`, price: 12 });
  const session = await openCheckout(account, product._id);
  const paid = await pay(runtime, session.id, { email: `buyer-${Math.random().toString(36).slice(2, 8)}@example.com`, firstName: 'Ann' });
  await settleWithRetries(runtime);
  const order = await account.test.get(`/orders/${paid.saleId}`);
  return String(order.body.reviewPath).split('/').pop()!;
}

describe('public browser routes answer other origins (one declaration, read by the local runtime and the CDK stack)', () => {
  it('signup form: preflight 204 with the allowed method and content-type; every answer, 4xx included, carries Allow-Origin', async () => {
    const form = (await account.test.post('/forms', { name: 'Cross-origin' })).body;
    for (const path of [`/forms/public/${form._id}/subscribe`, `/forms/public/${form._id}`]) {
      const pre = await preflight(path, path.endsWith('subscribe') ? 'POST' : 'GET');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toContain(path.endsWith('subscribe') ? 'POST' : 'GET');
      expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    }
    const read = await ctl.get(`/forms/public/${form._id}`, { origin: ORIGIN });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('*');

    const ok = await fromPage(`/forms/public/${form._id}/subscribe`, { email: 'cors-reader@example.com', elapsedMs: 4000 });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.body.status).toBe('subscribed');

    const bad = await fromPage(`/forms/public/${form._id}/subscribe`, { email: 'not-an-address', elapsedMs: 4000 });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
    expect(bad.body.field).toBe('email');
    const missing = await fromPage(`/forms/public/${'0'.repeat(24)}/subscribe`, { email: 'x@example.com', elapsedMs: 4000 });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    const badJson = await ctl.request('POST', `/forms/public/${form._id}/subscribe`, '{"email":', { origin: ORIGIN, 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expect(badJson.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('review submission and the survey answer take a cross-origin JSON post', async () => {
    const settings = await account.test.put('/attribution-survey/settings', {
      enabled: true,
      options: [
        { label: 'Instagram', channel: 'instagram' },
        { label: 'YouTube', channel: 'youtube' },
      ],
    });
    expect(settings.status, settings.text).toBe(200);
    const token = await receiptToken();
    for (const path of [`/reviews/submit/${token}`, `/survey/${token}`]) {
      const pre = await preflight(path);
      expect(pre.status, path).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    }
    const review = await fromPage(`/reviews/submit/${token}`, { rating: 5, body: 'Clear and short.' });
    expect(review.status, review.text).toBe(201);
    expect(review.headers.get('access-control-allow-origin')).toBe('*');
    const again = await fromPage(`/reviews/submit/${token}`, { rating: 4 });
    expect(again.status).toBe(409);
    expect(again.headers.get('access-control-allow-origin')).toBe('*');

    const wrong = await fromPage(`/survey/${token}`, { answer: 'radio' });
    expect(wrong.status).toBe(400);
    expect(wrong.headers.get('access-control-allow-origin')).toBe('*');
    const answered = await fromPage(`/survey/${token}`, { answer: 'instagram' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('key-authenticated routes stay closed to other origins: no preflight route, no Allow-Origin on any answer', async () => {
    for (const [path, method] of [
      ['/products', 'POST'],
      ['/forms', 'GET'],
      ['/credits/accounts', 'GET'],
    ] as const) {
      const pre = await preflight(path, method);
      expect(pre.status, path).toBeGreaterThanOrEqual(400);
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const answer = await account.test.get(path, { origin: ORIGIN });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
    // Public routes not meant for other sites' scripts are not opened either (the dashboard sign-in).
    expect((await preflight('/dashboard/auth/magic-link')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
