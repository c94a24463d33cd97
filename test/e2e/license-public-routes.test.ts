import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createProduct, openCheckout, pay } from '../support/commerce';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';

// The public licence routes as a seller's app calls them, from a browser on another origin too:
// CORS on every answer (429 included), and the two rate limits, per key and per caller address.
// RATE_LIMIT_PER_MINUTE 40 makes them 4 a minute per key and 20 per address (shared/licenses/service.ts).

let runtime: LocalRuntime;
let api: ApiClient;
let seller: TestAccount;
const ORIGIN = 'https://app.seller.example';

beforeAll(async () => {
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '40' });
  api = new ApiClient(runtime.url);
  seller = await createTestAccount(runtime, 'tier2');
}, 120_000);
afterAll(async () => runtime?.stop());

/** Moves the runtime's clock to one second into a fresh minute, so a burst never straddles two windows. */
async function freshMinute() {
  const { now } = (await api.post('/_local/clock/advance', { seconds: 0 })).body as { now: string };
  const ms = Date.parse(now);
  await api.post('/_local/clock/advance', { seconds: 60 + (60_000 - (ms % 60_000)) / 1000 + 1 });
}

/** A key of a paid order. */
async function paidKey(): Promise<string> {
  const product = await createProduct(seller, {
    name: `App ${Math.random().toString(36).slice(2, 6)}`,
    price: 20,
    licenseKeys: { enabled: true, activationLimit: 3 },
  });
  const session = await openCheckout(seller, product._id);
  const { saleId } = await pay(runtime, session.id, { email: `dev-${Math.random().toString(36).slice(2, 8)}@example.com` });
  await settleWithRetries(runtime);
  return (await seller.test.get(`/orders/${saleId}`)).body.licenseKeys[0].key;
}

const fromPage = (path: string, body: unknown) => api.request('POST', path, body, { origin: ORIGIN, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' });
const unknownKey = (i: number) => `AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-${'FGHJK'.slice(0, 3)}${'23456789'[i % 8]}${'ABCDEFGH'[Math.floor(i / 8) % 8]}`;

describe('public licence routes', () => {
  it('answer pages on other origins: preflight 204, Allow-Origin on 200, 400 and 404', { timeout: 120_000 }, async () => {
    const key = await paidKey();
    for (const path of ['/licenses/activate', '/licenses/validate', '/licenses/deactivate']) {
      const pre = await fetch(`${runtime.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')).toContain('content-type');
    }
    const activated = await fromPage('/licenses/activate', { key, instanceName: 'Browser' });
    expect(activated.status).toBe(200);
    expect(activated.headers.get('access-control-allow-origin')).toBe('*');
    const valid = await fromPage('/licenses/validate', { key, instanceId: activated.body.instance.id });
    expect(valid.body).toMatchObject({ valid: true });
    expect(valid.headers.get('access-control-allow-origin')).toBe('*');
    const malformed = await fromPage('/licenses/validate', { key: 'nope' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toContain('not a licence key');
    expect(malformed.headers.get('access-control-allow-origin')).toBe('*');
    const badInstance = await fromPage('/licenses/deactivate', { key, instanceId: 'inst_short' });
    expect(badInstance.status).toBe(400);
    expect(badInstance.body.message).toContain('not an instance id');
    const unknown = await fromPage('/licenses/validate', { key: unknownKey(0) });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ valid: false, license: null });
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');
    // The seller's key-authenticated list stays closed to other origins.
    expect(
      (await fetch(`${runtime.url}/licenses`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'GET' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBeNull();
  });

  it('hold one key to 4 checks a minute, whatever else the address checks; the 429 says when to retry and reaches the page', { timeout: 120_000 }, async () => {
    const [a, b] = [await paidKey(), await paidKey()];
    await freshMinute();
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof fromPage>> | undefined;
    for (let i = 0; i < 6; i++) {
      const answer = await fromPage('/licenses/validate', { key: a });
      statuses.push(answer.status);
      if (answer.status === 429) refused ??= answer;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.headers.get('access-control-allow-origin')).toBe('*');
    // Another key from the same address still checks: the limit was the key's.
    expect((await fromPage('/licenses/validate', { key: b })).status).toBe(200);
    // A refusal changes nothing: activation of the held key is refused too, and counts nothing.
    expect((await api.post('/licenses/activate', { key: a, instanceName: 'x' })).status).toBe(429);
    await freshMinute();
    expect((await api.post('/licenses/validate', { key: a })).body).toMatchObject({ valid: true, license: { activations: 0 } });
  });

  it('hold one address to 20 checks a minute across keys; malformed keys are refused before counting', { timeout: 120_000 }, async () => {
    await freshMinute();
    // Malformed keys are 400 before any limit: they do not spend the address's allowance.
    for (let i = 0; i < 5; i++) expect((await api.post('/licenses/validate', { key: `bad-${i}` })).status).toBe(400);
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) statuses.push((await api.post('/licenses/validate', { key: unknownKey(i) })).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(statuses.slice(20)).toEqual([429, 429, 429, 429]);
    // A fresh minute, a fresh allowance.
    await freshMinute();
    expect((await api.post('/licenses/validate', { key: unknownKey(30) })).status).toBe(404);
  });
});
