import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  [seller, other] = await Promise.all([createTestAccount(runtime, 'tier3'), createTestAccount(runtime, 'tier3')]);
  // 5 product.created and 2 product.updated in test mode, 1 product.created in live mode
  for (let i = 0; i < 5; i++) {
    const created = await seller.test.post('/products', { name: `P${i}`, price: 1 + i });
    expect(created.status).toBe(201);
    if (i < 2) expect((await seller.test.post(`/products/update/${created.body._id}`, { name: `P${i} v2` })).status).toBe(200);
  }
  expect((await seller.live.post('/products', { name: 'Live one', price: 9 })).status).toBe(201);
  expect((await other.test.post('/products', { name: 'Theirs', price: 9 })).status).toBe(201);
});
afterAll(() => runtime?.stop());

const outbox = async (account: TestAccount, mode: 'live' | 'test') =>
  (
    (await fetch(`${runtime.url}/_local/events?accountId=${account.accountId}&mode=${mode}`).then((r) => r.json())) as {
      events: { id: string; type: string; created: number; data: Record<string, unknown> }[];
    }
  ).events;

describe('events API', () => {
  it('lists every event of the account and mode newest first, page by page with the cursor', async () => {
    const expected = (await outbox(seller, 'test')).reverse();
    expect(expected.length).toBe(7);
    const seen: { id: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; text: string; body: any } = await seller.test.get(
        `/events?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.status, page.text).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.events);
      cursor = page.body.next;
      expect(page.body.hasMore).toBe(cursor !== null);
      pages++;
    } while (cursor && pages < 10);
    expect(seen.map((e) => e.id)).toEqual(expected.map((e) => e.id));
  });

  it('shows each event as its webhook delivery body: id, type, created, then the fields', async () => {
    const [newest] = (await outbox(seller, 'test')).reverse();
    const answer = await seller.test.get(`/events/${newest!.id}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id: newest!.id, type: newest!.type, created: newest!.created, ...newest!.data });
    expect(Object.keys(answer.body).slice(0, 3)).toEqual(['id', 'type', 'created']);
  });

  it('filters by type across pages', async () => {
    const first = await seller.test.get('/events?type=product.updated&limit=1');
    expect(first.body.events.map((e: { type: string }) => e.type)).toEqual(['product.updated']);
    const second = await seller.test.get(`/events?type=product.updated&limit=5&cursor=${encodeURIComponent(first.body.next)}`);
    expect(second.body.events.map((e: { type: string }) => e.type)).toEqual(['product.updated']);
    expect(second.body.events[0].id).not.toBe(first.body.events[0].id);
    expect((await seller.test.get('/events?type=not.a.type')).status).toBe(400);
  });

  it("never shows another account's or another mode's events, by list, id or cursor", async () => {
    const live = await seller.live.get('/events');
    expect(live.body.events).toHaveLength(1);
    const theirs = await other.test.get('/events');
    expect(theirs.body.events).toHaveLength(1);
    const mine = (await outbox(seller, 'test'))[0]!;
    expect((await other.test.get(`/events/${mine.id}`)).status).toBe(404);
    expect((await seller.live.get(`/events/${mine.id}`)).status).toBe(404);
    // A cursor from one account's list cannot open another's partition.
    const page = await seller.test.get('/events?limit=1');
    expect((await other.test.get(`/events?cursor=${encodeURIComponent(page.body.next)}`)).status).toBe(400);
    expect((await seller.live.get(`/events?cursor=${encodeURIComponent(page.body.next)}`)).status).toBe(400);
  });

  it('keeps events 30 days', async () => {
    const [oldest] = await outbox(seller, 'test');
    await fetch(`${runtime.url}/_local/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 31 * 24 * 3600 }) });
    expect((await seller.test.get('/events')).body.events).toEqual([]);
    expect((await seller.test.get(`/events/${oldest!.id}`)).status).toBe(404);
  });
});
