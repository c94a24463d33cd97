import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { getConnection } from '../../shared/sheets/repository';
import { type ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, pay } from '../support/commerce';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const advance = async (seconds: number) => {
  const res = await control(runtime).post('/_local/clock/advance', { seconds });
  expect(res.status, res.text).toBe(200);
};
const clockNow = async () => Date.parse((await control(runtime).post('/_local/clock/advance', { seconds: 0 })).body.now);
/** Moves the clock just past the next 2-minute batch mark. */
const toNextBatch = async () => {
  const now = await clockNow();
  await advance((Math.floor(now / 120_000) + 1) * 120 - now / 1000 + 1);
};
const sheetsOf = async (accountId: string) =>
  (await control(runtime).get(`/_local/sheets?accountId=${accountId}`)).body.spreadsheets as {
    id: string;
    title: string;
    mode: string;
    tabs: { Sales: unknown[][]; Customers: unknown[][] };
  }[];
const view = async (client: ApiClient) => (await client.get('/sheets-sync')).body;

/** Connect as a creator would: ask for the link, open the consent page, click Allow. */
async function connect(client: ApiClient) {
  const link = await client.post('/sheets-sync/connect');
  expect(link.status).toBe(200);
  const page = await fetch(link.body.url);
  expect(page.headers.get('content-type')).toContain('text/html');
  const html = await page.text();
  const allow = /id="allow" href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  const landed = await fetch(allow);
  expect(landed.status).toBe(200);
  expect(await landed.text()).toContain('Spreadsheet connected');
}

async function buy(client: ApiClient, productId: string, email: string, extra: Record<string, unknown> = {}) {
  const session = await client.post('/checkout/sessions', { productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' });
  expect(session.status).toBe(201);
  return pay(runtime, session.body.id, { email, firstName: 'Ann', lastName: 'Lee', country: 'DE', ...extra });
}

describe('spreadsheet sync on the local runtime', () => {
  let a: TestAccount;
  let productId: string;
  let sheetId: string;

  it('connects through the consent page and creates the spreadsheet with both header rows', async () => {
    a = await createTestAccount(runtime, 'tier3');
    expect((await view(a.live)).status).toBe('not_connected');
    await connect(a.live);
    const v = await view(a.live);
    expect(v).toMatchObject({ connected: true, status: 'active', pausedReason: null, counts: { synced: 0, pending: 0, failed: 0 } });
    expect(JSON.stringify(v)).not.toMatch(/lat_|lrt_|tokens/);
    sheetId = v.spreadsheet.id;
    const [sheet] = await sheetsOf(a.accountId);
    expect(sheet!.id).toBe(sheetId);
    expect(sheet!.tabs.Sales).toEqual([
      ['Date (UTC)', 'Order ID', 'Product', 'Type', 'Buyer email', 'Buyer name', 'Country', 'Amount', 'Tax', 'Platform fee', 'Net', 'Currency', 'Status'],
    ]);
    expect(sheet!.tabs.Customers).toEqual([['First purchase (UTC)', 'Email', 'Name', 'Country', 'First order ID', 'First product']]);
    // A used consent link cannot be replayed.
  });

  it('writes a live sale and the buyer after the 2-minute batch; a test sale never', async () => {
    // Just past a batch mark, so the real seconds this test takes cannot reach the next one.
    await toNextBatch();
    const product = await a.live.post('/products', { name: 'Guide', price: 29.99 });
    productId = product.body._id;
    const paid = await buy(a.live, productId, 'ann@example.com');
    const testProduct = await a.test.post('/products', { name: 'Test guide', price: 5 });
    await buy(a.test, testProduct.body._id, 'tess@example.com');
    await settleWithRetries(runtime);
    expect((await view(a.live)).counts).toEqual({ synced: 0, pending: 2, failed: 0 });
    expect((await sheetsOf(a.accountId))[0]!.tabs.Sales).toHaveLength(1);
    await advance(120);
    const [sheet] = await sheetsOf(a.accountId);
    expect(sheet!.tabs.Sales).toHaveLength(2);
    const row = sheet!.tabs.Sales[1]!;
    expect(row.slice(1)).toEqual([paid.saleId, 'Guide', 'one-time', 'ann@example.com', 'Ann Lee', 'DE', 29.99, 0, 0, 29.99, 'USD', 'paid']);
    expect(row[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(sheet!.tabs.Customers.slice(1)).toEqual([[expect.any(String), 'ann@example.com', 'Ann Lee', 'DE', paid.saleId, 'Guide']]);
    expect((await view(a.live)).counts).toEqual({ synced: 2, pending: 0, failed: 0 });
    expect(JSON.stringify(sheet)).not.toContain('tess@example.com');
  });

  it('adds a subscription and its renewal, keeps the buyer once in Customers, and marks a refund', async () => {
    const offer = await a.live.post('/subscriptions', { name: 'Club', price: 12, frequency: 'monthly' });
    expect(offer.status).toBe(201);
    const sub = await buy(a.live, offer.body._id, 'ann@example.com');
    const renewed = await control(runtime).post(`/_local/subscribers/${sub.subscriberId}/renew`, { outcome: 'succeed' });
    expect(renewed.status).toBe(200);
    const first = await buy(a.live, productId, 'bo@example.com', { firstName: 'Bo', lastName: 'Ek' });
    await control(runtime).post(`/_local/sales/${first.saleId}/refund`, {});
    await advance(120);
    const [sheet] = await sheetsOf(a.accountId);
    const types = sheet!.tabs.Sales.slice(1).map((r) => r[3]);
    expect(types).toEqual(['one-time', 'subscription', 'renewal', 'one-time']);
    expect(sheet!.tabs.Sales.at(-1)![12]).toBe('refunded');
    expect(sheet!.tabs.Customers.slice(1).map((r) => r[1])).toEqual(['ann@example.com', 'bo@example.com']);
    // A refund after the row was written rewrites its status cell.
    await control(runtime).post(`/_local/sales/${sub.saleId}/refund`, {});
    await advance(120);
    const after = (await sheetsOf(a.accountId))[0]!.tabs.Sales;
    expect(after.find((r) => r[1] === sub.saleId)![12]).toBe('refunded');
    expect(after).toHaveLength(5);
  });

  it('backs off 1, 2, 4… minutes on refused writes, shows Failed after 8, and Retry writes it once', async () => {
    expect((await control(runtime).post('/_local/sheets/fail-next', { count: 8 })).status).toBe(200);
    const sale = await buy(a.live, productId, 'cy@example.com');
    await toNextBatch();
    const delays: number[] = [];
    for (let attempt = 1; attempt < 8; attempt++) {
      const v = await view(a.live);
      expect(v.attempts).toBe(attempt);
      const now = await clockNow();
      delays.push(Math.round((Date.parse(v.nextAttemptAt) - now) / 60_000));
      await advance((Date.parse(v.nextAttemptAt) - now) / 1000 + 1);
    }
    expect(delays).toEqual([1, 2, 4, 8, 16, 32, 64]);
    const failed = await view(a.live);
    expect(failed.counts).toMatchObject({ pending: 0, failed: 2 });
    expect(failed.attempts).toBe(0);
    await advance(3600);
    expect((await sheetsOf(a.accountId))[0]!.tabs.Sales.some((r) => r[1] === sale.saleId)).toBe(false);
    expect((await a.live.post('/sheets-sync/retry')).body).toEqual({ requeued: 2 });
    await settleWithRetries(runtime);
    expect((await view(a.live)).counts).toMatchObject({ pending: 2, failed: 0 });
    await advance(120);
    const sales = (await sheetsOf(a.accountId))[0]!.tabs.Sales;
    expect(sales.filter((r) => r[1] === sale.saleId)).toHaveLength(1);
    expect((await view(a.live)).counts).toMatchObject({ pending: 0, failed: 0 });
  });

  it('sync now runs the batch at once and only once a minute', async () => {
    await buy(a.live, productId, 'dee@example.com');
    const first = await a.live.post('/sheets-sync/sync');
    expect(first.status).toBe(200);
    await settleWithRetries(runtime);
    expect((await sheetsOf(a.accountId))[0]!.tabs.Customers.some((r) => r[1] === 'dee@example.com')).toBe(true);
    const again = await a.live.post('/sheets-sync/sync');
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('SYNC_RATE_LIMITED');
  });

  it('backfills past sales into a new spreadsheet once, skipping duplicates', async () => {
    const before = (await sheetsOf(a.accountId))[0]!.tabs.Sales.length;
    expect((await a.live.post('/sheets-sync/backfill', { days: 14 })).status).toBe(400);
    expect((await a.live.post('/sheets-sync/backfill', { days: 30 })).status).toBe(200);
    await advance(120);
    expect((await sheetsOf(a.accountId))[0]!.tabs.Sales).toHaveLength(before);
    const created = await a.live.put('/sheets-sync/spreadsheet', { title: 'Second' });
    expect(created.status).toBe(200);
    const secondId = created.body.spreadsheet.id;
    expect(secondId).not.toBe(sheetId);
    expect((await a.live.post('/sheets-sync/backfill', { days: 365 })).status).toBe(200);
    await advance(120);
    await a.live.post('/sheets-sync/backfill', { days: 365 });
    await advance(120);
    const second = (await sheetsOf(a.accountId)).find((s) => s.id === secondId)!;
    const ids = second.tabs.Sales.slice(1).map((r) => r[1]);
    expect(ids).toHaveLength(before - 1);
    expect(new Set(ids).size).toBe(ids.length);
    // Back to the first one: only a spreadsheet this service created is accepted.
    expect((await a.live.put('/sheets-sync/spreadsheet', { spreadsheetId: 'someone-elses' })).body.code).toBe('SPREADSHEET_NOT_CREATED_BY_SERVICE');
    expect((await a.live.put('/sheets-sync/spreadsheet', { spreadsheetId: sheetId })).status).toBe(200);
  });

  it('pauses below Pro and keeps the connection; writes after the plan returns', async () => {
    await control(runtime).patch(`/_local/accounts/${a.accountId}`, { plan: 'tier2' });
    expect(await view(a.live)).toMatchObject({ connected: true, status: 'paused', pausedReason: 'plan' });
    expect((await a.live.post('/sheets-sync/sync')).body.code).toBe('FEATURE_LOCKED');
    const sale = await buy(a.live, productId, 'eve@example.com');
    await advance(600);
    expect((await sheetsOf(a.accountId)).find((s) => s.id === sheetId)!.tabs.Sales.some((r) => r[1] === sale.saleId)).toBe(false);
    await control(runtime).patch(`/_local/accounts/${a.accountId}`, { plan: 'tier3' });
    expect((await view(a.live)).status).toBe('active');
    await buy(a.live, productId, 'fay@example.com');
    await advance(120);
    expect((await sheetsOf(a.accountId)).find((s) => s.id === sheetId)!.tabs.Sales.some((r) => r[1] === sale.saleId)).toBe(true);
  });

  it('keeps accounts and modes apart', async () => {
    const b = await createTestAccount(runtime, 'tier3');
    expect((await view(b.live)).status).toBe('not_connected');
    expect((await view(a.test)).status).toBe('not_connected');
    expect(await sheetsOf(b.accountId)).toEqual([]);
    await connect(b.live);
    expect((await b.live.put('/sheets-sync/spreadsheet', { spreadsheetId: sheetId })).body.code).toBe('SPREADSHEET_NOT_CREATED_BY_SERVICE');
    expect((await sheetsOf(b.accountId)).map((s) => s.id)).not.toContain(sheetId);
  });

  it('disconnect revokes and deletes the stored tokens; the spreadsheet stays', async () => {
    const stored = await getConnection(runtime.deps.store, { accountId: a.accountId, mode: 'live' });
    expect(stored!.tokens).toBeTruthy();
    expect(stored!.tokens).not.toMatch(/lat_|lrt_/);
    const gone = await a.live.delete('/sheets-sync');
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ connected: false, status: 'disconnected', revoked: true });
    expect((await getConnection(runtime.deps.store, { accountId: a.accountId, mode: 'live' }))!.tokens).toBeUndefined();
    expect((await sheetsOf(a.accountId)).map((s) => s.id)).toContain(sheetId);
    const sale = await buy(a.live, productId, 'gus@example.com');
    await advance(120);
    expect(JSON.stringify(await sheetsOf(a.accountId))).not.toContain(sale.saleId!);
  });
});
