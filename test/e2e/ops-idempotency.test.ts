import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  [seller, other] = await Promise.all([createTestAccount(runtime, 'tier3'), createTestAccount(runtime, 'tier3')]);
});
afterAll(() => runtime?.stop());

const key = () => `key-${Math.random().toString(36).slice(2)}`;
const productCount = async (account: TestAccount, mode: 'live' | 'test' = 'test') => {
  const events = await fetch(`${runtime.url}/_local/events?accountId=${account.accountId}&mode=${mode}&type=product.created`).then((r) => r.json());
  return (events as { events: unknown[] }).events.length;
};

describe('Idempotency-Key on POST', () => {
  it('replays the first answer (status and body) to a retry with the same key and body, without doing the work again', async () => {
    const k = key();
    const before = await productCount(seller);
    const first = await seller.test.post('/products', { name: 'Ebook', price: 9 }, { 'idempotency-key': k });
    expect(first.status).toBe(201);
    const again = await seller.test.post('/products', { name: 'Ebook', price: 9 }, { 'idempotency-key': k });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await productCount(seller)).toBe(before + 1);
    // Without a key, the same request is new work.
    const plain = await seller.test.post('/products', { name: 'Ebook', price: 9 });
    expect(plain.body._id).not.toBe(first.body._id);
  });

  it('answers 409 to the same key with a different body, and changes nothing', async () => {
    const k = key();
    const first = await seller.test.post('/products', { name: 'Course', price: 20 }, { 'idempotency-key': k });
    expect(first.status).toBe(201);
    const before = await productCount(seller);
    const reused = await seller.test.post('/products', { name: 'Course', price: 21 }, { 'idempotency-key': k });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('idempotency_key_reused');
    // A different operation with the key is a different request too.
    expect((await seller.test.post('/webhooks', { url: 'https://example.com/hook', events: ['order.completed'] }, { 'idempotency-key': k })).status).toBe(409);
    expect(await productCount(seller)).toBe(before);
  });

  it('does the work once when duplicates race: one answer, the others 409 in progress or the replay', async () => {
    const k = key();
    const before = await productCount(seller);
    const answers = await Promise.all(Array.from({ length: 6 }, () => seller.test.post('/products', { name: 'Race', price: 3 }, { 'idempotency-key': k })));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.body._id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('idempotency_key_in_progress');
    }
    expect(await productCount(seller)).toBe(before + 1);
  });

  it('keeps keys apart per account and per mode', async () => {
    const k = key();
    const mine = await seller.test.post('/products', { name: 'Shared key', price: 4 }, { 'idempotency-key': k });
    const theirs = await other.test.post('/products', { name: 'Shared key', price: 4 }, { 'idempotency-key': k });
    const live = await seller.live.post('/products', { name: 'Shared key', price: 4 }, { 'idempotency-key': k });
    expect([mine.status, theirs.status, live.status]).toEqual([201, 201, 201]);
    expect(new Set([mine.body._id, theirs.body._id, live.body._id]).size).toBe(3);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(live.headers.get('idempotent-replayed')).toBeNull();
    // and a different body in another account is not a conflict
    expect((await other.test.post('/products', { name: 'Other body', price: 5 }, { 'idempotency-key': key() })).status).toBe(201);
  });

  it('replays a refused request too (4xx), and a key expires after 24 hours', async () => {
    const k = key();
    const bad = await seller.test.post('/products', { name: '', price: -1 }, { 'idempotency-key': k });
    expect(bad.status).toBe(400);
    const replay = await seller.test.post('/products', { name: '', price: -1 }, { 'idempotency-key': k });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(bad.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const k2 = key();
    const first = await seller.test.post('/products', { name: 'Day one', price: 7 }, { 'idempotency-key': k2 });
    await fetch(`${runtime.url}/_local/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 24 * 3600 + 60 }) });
    const later = await seller.test.post('/products', { name: 'Day one', price: 7 }, { 'idempotency-key': k2 });
    expect(later.status).toBe(201);
    expect(later.body._id).not.toBe(first.body._id);
  });

  it('refuses a malformed key with a 400 and ignores keys on GET', async () => {
    const bad = await seller.test.post('/products', { name: 'X', price: 1 }, { 'idempotency-key': 'has space' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('idempotency_key_invalid');
    expect((await seller.test.get('/products', { 'idempotency-key': 'has space' })).status).toBe(200);
  });
});
