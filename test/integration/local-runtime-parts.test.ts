import { beforeAll, describe, expect, it } from 'vitest';
import type { LocalAdapters } from '../../shared/composition/local-deps';
import type { OffsetClock } from '../../shared/platform/clock';
import { consumeRequest } from '../../shared/platform/rate-limit';
import type { Deps } from '../../shared/platform/context';
import { createTestDeps } from '../support/store';
import { createAccount, createApiKey, findApiKey, revokeApiKey } from '../../shared/platform/accounts';
import { authenticate, clearAuthCache } from '../../shared/platform/auth';

let deps: Deps;
let adapters: LocalAdapters;
let clock: OffsetClock;

beforeAll(async () => {
  ({ deps, adapters, clock } = await createTestDeps({ RATE_LIMIT_PER_MINUTE: '3' }));
});

describe('local scheduler', () => {
  it('keeps timers in due order, replaces by name and cancels', async () => {
    const now = clock.nowMs();
    await adapters.scheduler.schedule('b', new Date(now + 2000), { type: 't', payload: { n: 'b' } });
    await adapters.scheduler.schedule('a', new Date(now + 1000), { type: 't', payload: { n: 'a' } });
    await adapters.scheduler.schedule('c', new Date(now + 3000), { type: 't', payload: { n: 'c' } });
    await adapters.scheduler.schedule('c', new Date(now + 500), { type: 't', payload: { n: 'c2' } });
    await adapters.scheduler.cancel('b');
    await adapters.scheduler.cancel('never-made');
    expect(await adapters.scheduler.nextDue(now)).toBeUndefined();
    const fired: unknown[] = [];
    clock.advance(10);
    for (let timer = await adapters.scheduler.nextDue(); timer; timer = await adapters.scheduler.nextDue()) {
      expect(await adapters.scheduler.claim(timer)).toBe(true);
      expect(await adapters.scheduler.claim(timer)).toBe(false);
      fired.push(timer.job.payload.n);
    }
    expect(fired).toEqual(['c2', 'a']);
  });
});

describe('rate limit', () => {
  it('counts per account and opens again once the last minute no longer weighs', async () => {
    await consumeRequest(deps, 'acct-1');
    await consumeRequest(deps, 'acct-1');
    await consumeRequest(deps, 'acct-1');
    await expect(consumeRequest(deps, 'acct-1')).rejects.toMatchObject({ status: 429 });
    await consumeRequest(deps, 'acct-2');
    // Sliding window: the full minute before still weighs until two windows on.
    clock.advance(120);
    await consumeRequest(deps, 'acct-1');
  });
});

describe('API keys', () => {
  it('stores only a hash, and a revoked key stops working once the cache expires', async () => {
    const account = await createAccount(deps.store, clock, { email: 'k@example.com' });
    const { key, record } = await createApiKey(deps.store, clock, account.accountId, 'live');
    expect(JSON.stringify(await findApiKey(deps.store, key))).not.toContain(key);
    expect((await authenticate(deps, `Bearer ${key}`)).scope).toEqual({ accountId: account.accountId, mode: 'live' });
    expect(await revokeApiKey(deps.store, clock, account.accountId, record.keyId)).toBe(true);
    clearAuthCache();
    await expect(authenticate(deps, `Bearer ${key}`)).rejects.toMatchObject({ status: 401 });
  });
});
