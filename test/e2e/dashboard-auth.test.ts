import { SESSION_SECRET } from '../../shared/platform/settings';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, control, createTestAccount, startTestRuntime } from '../support/runtime';
import { joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';
import { randomHex } from '../../shared/platform/ids';
import { sentMails } from '../support/local';

let runtime: LocalRuntime;
let dist: string;
beforeAll(async () => {
  // The built app is the dash-spa's work: a folder that does not exist yet, filled by a test below.
  dist = join(await mkdtemp(join(tmpdir(), 'dashboard-')), 'dist');
  runtime = await startTestRuntime({}, { dashboardDir: dist });
});
afterAll(async () => {
  await runtime?.stop();
  await rm(join(dist, '..'), { recursive: true, force: true });
});

const unique = (name: string) => `${name}-${randomHex(4)}@example.com`;
const anon = () => control(runtime);
const advance = (seconds: number) => control(runtime).post('/_local/clock/advance', { seconds });

/** Asks for a link and reads it from the captured mail, as the person would from their inbox. */
async function signInLink(email: string): Promise<string> {
  const asked = await anon().post('/dashboard/auth/magic-link', { email });
  expect(asked.status).toBe(202);
  expect(asked.body).toEqual({ sent: true });
  const last = (await sentMails(runtime, email.toLowerCase())).at(-1);
  const link = last && /(https?:\/\/\S+\/dashboard\/sign-in\?token=[^\s"<]+)/.exec(last.text)?.[1];
  if (!link) throw new Error(`no sign-in mail to ${email}`);
  return link;
}
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const exchange = (token: string) => anon().post('/dashboard/auth/session', { token });

async function signIn(email: string) {
  const session = await exchange(tokenOf(await signInLink(email)));
  expect(session.status).toBe(200);
  return session.body as {
    email: string;
    expiresAt: string;
    stores: { accountId: string; mode: string; role: string; areas: string[]; memberId: string | null; token: string; storeName: string }[];
  };
}

describe('dashboard sign-in', () => {
  it('signs the owner in by magic link: one token per mode, single use, tampered link refused', { timeout: 30_000 }, async () => {
    const email = unique('Owner');
    const owner = await createTestAccount(runtime, 'tier3', email);
    const link = await signInLink(email);
    expect(link.startsWith(`${runtime.url}/dashboard/sign-in?token=`)).toBe(true);

    const session = await exchange(tokenOf(link));
    expect(session.status).toBe(200);
    expect(session.body.email).toBe(email.toLowerCase());
    const hours = (Date.parse(session.body.expiresAt) - Date.parse((await advance(0)).body.now)) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    expect(session.body.stores.map((s: any) => [s.accountId, s.mode, s.role, s.memberId])).toEqual([
      [owner.accountId, 'live', 'owner', null],
      [owner.accountId, 'test', 'owner', null],
    ]);
    expect(session.body.stores[0].areas).toEqual(['products', 'orders', 'emails', 'marketing', 'analytics', 'developers']);

    // The tokens are the API's own: each reaches its mode's records.
    const [live, test] = session.body.stores.map((s: any) => new ApiClient(runtime.url, s.token));
    expect((await owner.live.post('/products', { name: 'Live guide', price: 10 })).status).toBe(201);
    expect((await live.get('/products')).body.map((p: any) => p.name)).toEqual(['Live guide']);
    expect((await test.get('/products')).body).toEqual([]);
    const me = await test.get('/dashboard/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      accountId: owner.accountId,
      storeName: email,
      mode: 'test',
      role: 'owner',
      areas: session.body.stores[0].areas,
      email: email.toLowerCase(),
      expiresAt: session.body.expiresAt,
    });

    // A link works once; an altered or unknown one is invalid; keys are not sessions.
    const reused = await exchange(tokenOf(link));
    expect([reused.status, reused.body.code]).toEqual([410, 'LINK_USED']);
    const tampered = await exchange(tokenOf(link).slice(0, -1) + (tokenOf(link).endsWith('a') ? 'b' : 'a'));
    expect([tampered.status, tampered.body.code]).toEqual([400, 'INVALID_LINK']);
    const notSession = await owner.live.get('/dashboard/auth/me');
    expect([notSession.status, notSession.body.code]).toEqual([400, 'NOT_A_SESSION']);
    // The mail never carries a token anywhere but in the link.
    expect((await sentMails(runtime, email.toLowerCase())).length).toBe(1);
  });

  it('answers 202 for an unknown address and mails nothing; limits links per address', { timeout: 30_000 }, async () => {
    const nobody = unique('nobody');
    for (let i = 0; i < 5; i++) {
      const asked = await anon().post('/dashboard/auth/magic-link', { email: nobody.toUpperCase() });
      expect([asked.status, asked.body]).toEqual([202, { sent: true }]);
    }
    expect(await sentMails(runtime, nobody)).toEqual([]);
    // The sixth in the window is refused for known and unknown addresses alike.
    const limited = await anon().post('/dashboard/auth/magic-link', { email: nobody });
    expect([limited.status, limited.body.code]).toEqual([429, 'SIGN_IN_RATE_LIMITED']);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await anon().post('/dashboard/auth/magic-link', { email: 'not an email' })).status).toBe(400);
  });

  it('signs a team member in to the stores and modes they belong to, limited to their areas', { timeout: 40_000 }, async () => {
    const owner = await createTestAccount(runtime, 'tier3', unique('boss'));
    const catalog = await owner.live.post('/team/teams', { name: 'Catalog', areas: ['products'] });
    const memberEmail = unique('Mia');
    const joined = await joinTeam(runtime, owner, memberEmail, 'member', [catalog.body._id]);
    // The same person also owns a store of their own: both come back from one sign-in.
    const own = await createTestAccount(runtime, 'free', memberEmail);
    const session = await signIn(memberEmail);
    const store = session.stores.find((s) => s.accountId === owner.accountId)!;
    expect(session.stores.filter((s) => s.accountId === owner.accountId)).toHaveLength(1);
    expect(store).toMatchObject({ mode: 'live', role: 'member', areas: ['products'], memberId: joined.id });
    expect(session.stores.filter((s) => s.accountId === own.accountId).map((s) => [s.mode, s.role])).toEqual([
      ['live', 'owner'],
      ['test', 'owner'],
    ]);

    const member = new ApiClient(runtime.url, store.token);
    expect((await member.get('/products')).status).toBe(200);
    const webhooks = await member.get('/webhooks');
    expect([webhooks.status, webhooks.body.code]).toEqual([403, 'AREA_FORBIDDEN']);
    const keys = await member.get('/api-keys');
    expect([keys.status, keys.body.code]).toEqual([403, 'AREA_FORBIDDEN']);
    expect((await member.get('/dashboard/auth/me')).body).toMatchObject({
      accountId: owner.accountId,
      role: 'member',
      areas: ['products'],
      email: memberEmail.toLowerCase(),
    });

    // A member with the developer area but not an admin still may not manage keys.
    const devs = await owner.live.post('/team/teams', { name: 'Devs', areas: ['developers'] });
    const devEmail = unique('dev');
    await joinTeam(runtime, owner, devEmail, 'member', [devs.body._id]);
    const dev = new ApiClient(runtime.url, (await signIn(devEmail)).stores[0]!.token);
    expect((await dev.get('/webhooks')).status).toBe(200);
    const devKeys = await dev.get('/api-keys');
    expect([devKeys.status, devKeys.body.code]).toEqual([403, 'ROLE_FORBIDDEN']);

    // Removed from the team: the next sign-in no longer offers the store, and the token stops.
    expect((await owner.live.delete(`/team/members/${joined.id}`)).status).toBe(200);
    expect((await member.get('/products')).status).toBe(401);
    const after = await signIn(memberEmail);
    expect(after.stores.map((s) => s.accountId)).toEqual([own.accountId, own.accountId]);
  });

  it('keeps tenants apart: a session token reaches its own store only', { timeout: 30_000 }, async () => {
    const aEmail = unique('a');
    const a = await createTestAccount(runtime, 'tier3', aEmail);
    const b = await createTestAccount(runtime, 'tier3', unique('b'));
    expect((await b.live.post('/products', { name: 'B only', price: 5 })).status).toBe(201);
    const session = await signIn(aEmail);
    expect(session.stores.every((s) => s.accountId === a.accountId)).toBe(true);
    const live = new ApiClient(runtime.url, session.stores.find((s) => s.mode === 'live')!.token);
    expect((await live.get('/products')).body).toEqual([]);
    // A token re-signed to name B without the secret is refused; one naming B with A's sid is not B's sign-in to borrow.
    const forged = await new SignJWT({ mode: 'live', sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(b.accountId)
      .setIssuer('creator-commerce')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-0123456789'));
    expect((await new ApiClient(runtime.url, forged).get('/products')).status).toBe(401);
    const unknownSid = await new SignJWT({ mode: 'live', sid: 'never-opened' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(b.accountId)
      .setIssuer('creator-commerce')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(await runtime.secret(SESSION_SECRET)));
    expect((await new ApiClient(runtime.url, unknownSid).get('/products')).status).toBe(401);
  });

  it('signs out every token of the sign-in at once', { timeout: 30_000 }, async () => {
    const email = unique('leaver');
    await createTestAccount(runtime, 'tier3', email);
    const first = await signIn(email);
    const second = await signIn(email);
    const [live, test] = first.stores.map((s) => new ApiClient(runtime.url, s.token));
    expect((await live.get('/products')).status).toBe(200);
    expect((await test.get('/products')).status).toBe(200);
    const out = await live.post('/dashboard/auth/sign-out');
    expect(out.status).toBe(204);
    expect((await live.get('/products')).status).toBe(401);
    expect((await test.get('/products')).status).toBe(401);
    expect((await test.post('/dashboard/auth/sign-out')).status).toBe(401);
    // Another sign-in of the same person is its own.
    expect((await new ApiClient(runtime.url, second.stores[0]!.token).get('/products')).status).toBe(200);
  });
});

describe('API keys', () => {
  it('creates (shown once), lists per mode and revokes with immediate effect', { timeout: 30_000 }, async () => {
    const email = unique('keys');
    const owner = await createTestAccount(runtime, 'tier3', email);
    const session = await signIn(email);
    const live = new ApiClient(runtime.url, session.stores.find((s) => s.mode === 'live')!.token);
    const test = new ApiClient(runtime.url, session.stores.find((s) => s.mode === 'test')!.token);

    const created = await live.post('/api-keys', { name: 'Zapier' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Zapier', mode: 'live' });
    expect(created.body.key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);
    const key = new ApiClient(runtime.url, created.body.key);
    expect((await key.get('/products')).status).toBe(200);
    expect((await live.post('/api-keys', { name: '' })).status).toBe(400);

    const listed = await live.get('/api-keys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: any) => [k.name, k.mode])).toEqual([
      [null, 'live'],
      ['Zapier', 'live'],
    ]);
    expect(listed.text).not.toContain(created.body.key);
    expect(listed.text).not.toContain(owner.liveKey);
    // A test-mode session sees the test keys only.
    const testKeys = await test.get('/api-keys');
    expect(testKeys.body.data.map((k: any) => k.mode)).toEqual(['test']);
    expect((await test.delete(`/api-keys/${created.body.id}`)).status).toBe(404);

    const revoked = await live.delete(`/api-keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.id).toBe(created.body.id);
    expect((await key.get('/products')).status).toBe(401);
    expect((await live.delete(`/api-keys/${created.body.id}`)).body.revokedAt).toBe(revoked.body.revokedAt);
    expect((await live.get('/api-keys')).body.data.find((k: any) => k.id === created.body.id).revokedAt).toBe(revoked.body.revokedAt);

    // Another store cannot see or revoke this store's keys.
    const other = await createTestAccount(runtime, 'tier3', unique('other'));
    const otherKey = (await other.live.post('/api-keys', { name: 'theirs' })).body;
    expect((await live.delete(`/api-keys/${otherKey.id}`)).status).toBe(404);
    expect((await new ApiClient(runtime.url, otherKey.key).get('/products')).status).toBe(200);
  });
});

describe('sign-in time limits', () => {
  it('expires links after 15 minutes and sessions after 12 hours', { timeout: 30_000 }, async () => {
    const email = unique('late');
    await createTestAccount(runtime, 'tier3', email);
    const session = await signIn(email);
    const lateLink = await signInLink(email);
    await advance(15 * 60 + 1);
    const late = await exchange(tokenOf(lateLink));
    expect([late.status, late.body.code]).toEqual([410, 'LINK_EXPIRED']);
    const token = new ApiClient(runtime.url, session.stores[0]!.token);
    expect((await token.get('/products')).status).toBe(200);
    await advance(12 * 3600);
    expect((await token.get('/products')).status).toBe(401);
  });
});

describe('dashboard hosting (local runtime)', () => {
  it('says how to build when there is no build, then serves files, client routes and config', { timeout: 20_000 }, async () => {
    const missing = await fetch(`${runtime.url}/dashboard`);
    expect(missing.status).toBe(503);
    expect(await missing.text()).toContain('npm run dashboard:build');

    await mkdir(join(dist, 'assets'), { recursive: true });
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Dashboard</title><div id="root"></div>');
    await writeFile(join(dist, 'assets', 'index-AbC123xy.js'), 'console.log(1)');
    await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

    for (const path of ['/dashboard', '/dashboard/', '/dashboard/sign-in', '/dashboard/products/new']) {
      const page = await fetch(`${runtime.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toContain('<div id="root">');
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/https?:/);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    }
    const script = await fetch(`${runtime.url}/dashboard/assets/index-AbC123xy.js`);
    expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    expect((await fetch(`${runtime.url}/dashboard/favicon.svg`)).headers.get('content-type')).toBe('image/svg+xml');
    expect((await fetch(`${runtime.url}/dashboard/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/dashboard/..%2f..%2fpackage.json`)).status).toBe(404);

    const config = await fetch(`${runtime.url}/dashboard/config.json`);
    expect(config.status).toBe(200);
    expect(await config.json()).toEqual({ apiBaseUrl: runtime.url });
    // The API's own routes under /dashboard stay the API's.
    expect((await fetch(`${runtime.url}/dashboard/auth/me`)).status).toBe(401);
  });
});
