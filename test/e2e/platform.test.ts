import { SESSION_SECRET } from '../../shared/platform/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ApiClient, control, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let account: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '25' });
  account = await createTestAccount(runtime, 'free', 'owner@example.com');
});
afterAll(async () => runtime?.stop());

describe('authentication', () => {
  it('answers the current account with either key and reports the mode', async () => {
    const test = await account.test.get('/users/me');
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ _id: account.accountId, email: 'owner@example.com', mode: 'test', testMode: true, plan: 'free' });
    const live = await account.live.get('/users/me');
    expect(live.body).toMatchObject({ mode: 'live', testMode: false });
    expect(test.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers 401 with a reason for a missing, malformed or unknown key', async () => {
    for (const key of [undefined, 'pk_test_short', 'pk_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'sk_test_whatever']) {
      const response = await new ApiClient(runtime.url, key).get('/users/me');
      expect(response.status).toBe(401);
      expect(response.body.error).toMatch(/API key/);
    }
  });

  it('accepts a session token (JWT) signed with the configured secret, and refuses a forged one', async () => {
    const token = await new SignJWT({ mode: 'live' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(account.accountId)
      .setIssuer('creator-commerce')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(await runtime.secret(SESSION_SECRET)));
    const ok = await new ApiClient(runtime.url, token).get('/users/me');
    expect(ok.status).toBe(200);
    expect(ok.body.mode).toBe('live');
    const forged = await new SignJWT({ mode: 'live' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(account.accountId)
      .setIssuer('creator-commerce')
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    expect((await new ApiClient(runtime.url, forged).get('/users/me')).status).toBe(401);
  });
});

describe('errors and routing', () => {
  it('answers 404 with a JSON body for an unknown route and 405 for a wrong method', async () => {
    const missing = await account.test.get('/no/such/route');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBeTruthy();
    const wrongMethod = await account.test.request('DELETE', '/users/me');
    expect(wrongMethod.status).toBe(405);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After past the per-account limit, and counts each account apart', async () => {
    const limited = await createTestAccount(runtime);
    const other = await createTestAccount(runtime);
    // The window is a fixed minute: start at the top of a fresh one so the burst stays inside it.
    const now = new Date((await control(runtime).post('/_local/clock/advance', { seconds: 0 })).body.now);
    await control(runtime).post('/_local/clock/advance', { seconds: 60 - now.getUTCSeconds() + 0.1 });
    const statuses: number[] = [];
    for (let i = 0; i < 27; i++) statuses.push((await limited.test.get('/users/me')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(25);
    const refused = await limited.live.get('/users/me');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.error).toMatch(/Rate limit/);
    expect((await other.test.get('/users/me')).status).toBe(200);
  });
});

describe('control API', () => {
  it('changes an account plan and validates its input', async () => {
    const c = control(runtime);
    const target = await createTestAccount(runtime);
    expect((await c.patch(`/_local/accounts/${target.accountId}`, { plan: 'tier3' })).status).toBe(200);
    expect((await target.test.get('/users/me')).body.plan).toBe('tier3');
    const bad = await c.patch(`/_local/accounts/${target.accountId}`, { plan: 'gold' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('plan');
    expect((await c.patch('/_local/accounts/000000000000000000000000', { plan: 'tier2' })).status).toBe(404);
  });

  it('reports the capacity units consumed so far, growing with each write', async () => {
    const c = control(runtime);
    const before = (await c.get('/_local/capacity')).body;
    await account.test.post('/products', { name: 'Counted', price: 1 });
    await settleWithRetries(runtime);
    const after = (await c.get('/_local/capacity')).body;
    expect(after.write).toBeGreaterThan(before.write);
    expect(after.read).toBeGreaterThanOrEqual(before.read);
  });

  it('moves the clock and settles', async () => {
    const c = control(runtime);
    const before = Date.now();
    const advanced = await c.post('/_local/clock/advance', { seconds: 86400 });
    expect(advanced.status).toBe(200);
    expect(new Date(advanced.body.now).getTime()).toBeGreaterThanOrEqual(before + 86400_000);
    expect((await c.post('/_local/settle', {})).status).toBe(200);
    expect((await c.get('/_local/emails')).body).toEqual({ emails: [] });
  });
});
