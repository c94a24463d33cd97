import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import { startRecordingEndpoint } from '../support/recording-endpoint';
import { createTestAccount, settleWithRetries, startTestRuntime, type ApiClient, type ApiResponse, type TestAccount } from '../support/runtime';

// Every growing list takes `limit` and `cursor` and answers the next cursor: in the body
// (`nextCursor`) or, for the lists the spec shapes as bare arrays, in `X-Next-Cursor` and `Link`.
// Walking the pages must give exactly the unpaged list: same rows, same order, none twice.

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;
let receiver: Awaited<ReturnType<typeof startRecordingEndpoint>>;

const ONE_TIME = 5;
const SUBSCRIPTIONS = 3;

beforeAll(async () => {
  runtime = await startTestRuntime();
  receiver = await startRecordingEndpoint(() => ({ status: 200 }));
  [seller, other] = await Promise.all([createTestAccount(runtime, 'volume'), createTestAccount(runtime, 'volume')]);
  expect((await seller.test.post('/webhooks', { url: `${receiver.endpoint}/hook`, events: ['order.completed', 'customer.created'] })).status).toBe(201);
  const product = await createProduct(seller, { name: 'Ebook', price: 10 });
  const offer = await createOffer(seller, { name: 'Club', price: 5, frequency: 'monthly' });
  for (let i = 0; i < ONE_TIME; i++) await pay(runtime, (await openCheckout(seller, product._id)).id, { email: `buyer${i}@example.com` });
  for (let i = 0; i < SUBSCRIPTIONS; i++) await pay(runtime, (await openCheckout(seller, offer._id)).id, { email: `member${i}@example.com` });
  await settleWithRetries(runtime);
}, 180_000);
afterAll(async () => {
  await runtime?.stop();
  await receiver?.close();
});

type Walked = { rows: Record<string, unknown>[]; pages: number; limit: number };

/** Follows the header cursor of an array-shaped list from the first page to the last. */
async function walkArray(api: ApiClient, path: string, limit: number): Promise<Walked> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: ApiResponse = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.length).toBeLessThanOrEqual(limit);
    rows.push(...res.body);
    pages++;
    cursor = res.headers.get('x-next-cursor');
    if (cursor) {
      // The Link header names the same next page, with the other query parameters kept.
      const link = res.headers.get('link')!;
      expect(link).toMatch(/; rel="next"$/);
      const next = new URL(link.slice(1, link.indexOf('>')));
      expect(next.searchParams.get('cursor')).toBe(cursor);
      expect(next.searchParams.get('limit')).toBe(String(limit));
    } else expect(res.headers.get('link')).toBeNull();
  } while (cursor && pages < 50);
  return { rows, pages, limit };
}

/** Follows `nextCursor` (or another field naming it) of an object-shaped list. */
async function walkObject(api: ApiClient, path: string, limit: number, rowsOf: (body: any) => Record<string, unknown>[]): Promise<Walked> {
  const rows: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: ApiResponse = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    const page = rowsOf(res.body);
    expect(page.length).toBeLessThanOrEqual(limit);
    rows.push(...page);
    pages++;
    expect(res.body).toHaveProperty('nextCursor');
    cursor = res.body.nextCursor;
  } while (cursor && pages < 100);
  return { rows, pages, limit };
}

const ids = (rows: Record<string, unknown>[], key = '_id') => rows.map((r) => String(r[key]));

function samePagedAsWhole(walked: Walked, whole: Record<string, unknown>[], key = '_id', atLeast = 0) {
  expect(whole.length).toBeGreaterThanOrEqual(atLeast);
  expect(ids(walked.rows, key)).toEqual(ids(whole, key));
  expect(new Set(ids(walked.rows, key)).size).toBe(walked.rows.length);
  expect(walked.pages).toBeGreaterThanOrEqual(Math.ceil(whole.length / walked.limit));
  expect(walked.pages).toBeGreaterThan(1);
}

describe('cursor paging of every growing list', () => {
  it('orders, payments and customers: array pages, the next in X-Next-Cursor and Link', async () => {
    const orders = (await seller.test.get('/orders')).body;
    expect(orders).toHaveLength(ONE_TIME);
    samePagedAsWhole(await walkArray(seller.test, '/orders', 2), orders, '_id', ONE_TIME);

    const payments = (await seller.test.get('/payments')).body;
    expect(payments).toHaveLength(ONE_TIME + SUBSCRIPTIONS);
    samePagedAsWhole(await walkArray(seller.test, '/payments', 3), payments);
    const subscriptionPayments = (await seller.test.get('/payments?type=subscription')).body;
    expect(subscriptionPayments).toHaveLength(SUBSCRIPTIONS);
    samePagedAsWhole(await walkArray(seller.test, '/payments?type=subscription', 2), subscriptionPayments);

    const customers = (await seller.test.get('/customers')).body;
    expect(customers).toHaveLength(ONE_TIME + SUBSCRIPTIONS);
    samePagedAsWhole(await walkArray(seller.test, '/customers', 3), customers);
    const oldest = (await seller.test.get('/customers?sort=oldest')).body;
    expect(ids(oldest)).toEqual(ids(customers).reverse());
    samePagedAsWhole(await walkArray(seller.test, '/customers?sort=oldest', 2), oldest);
    // A filtered list pages too: only the buyers of the product, whatever page they fall on.
    const productId = orders[0].productId as string;
    const buyers = await walkArray(seller.test, `/customers?productId=${productId}`, 2);
    expect(buyers.rows).toHaveLength(ONE_TIME);
    expect(buyers.rows.every((c) => (c.productIds as string[]).includes(productId))).toBe(true);
  });

  it('subscribers: limit and cursor beside page and pageSize, total once the last page is reached', async () => {
    const whole = (await seller.test.get('/subscriptions/subscribers')).body;
    expect(whole).toMatchObject({ page: 1, pageSize: 20, total: SUBSCRIPTIONS, nextCursor: null });
    samePagedAsWhole(await walkObject(seller.test, '/subscriptions/subscribers', 2, (b) => b.data), whole.data);
    const first = (await seller.test.get('/subscriptions/subscribers?pageSize=2')).body;
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: null });
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await seller.test.get('/subscriptions/subscribers?pageSize=2&page=2')).body;
    expect(second).toMatchObject({ page: 2, pageSize: 2, total: SUBSCRIPTIONS, nextCursor: null });
    expect([...ids(first.data), ...ids(second.data)]).toEqual(ids(whole.data));
    expect((await seller.test.get('/subscriptions/subscribers?page=51')).status).toBe(400);
  });

  it('contacts, deliveries and events answer nextCursor and take it back as cursor', async () => {
    const contacts = (await seller.test.get('/newsletters/subscribers?limit=100')).body;
    expect(contacts.data).toHaveLength(ONE_TIME + SUBSCRIPTIONS);
    samePagedAsWhole(await walkObject(seller.test, '/newsletters/subscribers', 3, (b) => b.data), contacts.data);

    const deliveries = (await seller.test.get('/delivered-webhooks?limit=100')).body;
    expect(deliveries.deliveries.length).toBeGreaterThanOrEqual(ONE_TIME + SUBSCRIPTIONS);
    samePagedAsWhole(await walkObject(seller.test, '/delivered-webhooks', 4, (b) => b.deliveries), deliveries.deliveries, 'id');

    const events = (await seller.test.get('/events?limit=100')).body;
    expect(events.events.length).toBeGreaterThanOrEqual(2 * (ONE_TIME + SUBSCRIPTIONS));
    samePagedAsWhole(await walkObject(seller.test, '/events', 5, (b) => b.events), events.events, 'id');
  });

  it('refuses a forged cursor, one of another list, account or mode, and a limit out of range, with 400', async () => {
    const res = await seller.test.get('/orders?limit=1');
    const cursor = res.headers.get('x-next-cursor')!;
    expect(cursor).toBeTruthy();
    const refused = async (api: ApiClient, path: string) => {
      const answer = await api.get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.text).toMatch(/cursor/i);
    };
    await refused(seller.test, '/orders?cursor=not-a-cursor');
    await refused(other.test, `/orders?cursor=${encodeURIComponent(cursor)}`);
    await refused(seller.live, `/orders?cursor=${encodeURIComponent(cursor)}`);
    await refused(seller.test, `/customers?cursor=${encodeURIComponent(cursor)}`);
    const subscriberCursor = (await seller.test.get('/subscriptions/subscribers?limit=1')).body.nextCursor as string;
    await refused(other.test, `/subscriptions/subscribers?cursor=${encodeURIComponent(subscriberCursor)}`);
    expect((await seller.test.get('/orders?limit=1001')).status).toBe(400);
    expect((await seller.test.get('/payments?limit=0')).status).toBe(400);
    expect((await seller.test.get('/subscriptions/subscribers?limit=101')).status).toBe(400);
  });
});
