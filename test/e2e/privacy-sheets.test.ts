import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { type ApiClient, createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import { control, pay } from '../support/commerce';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const advance = async (seconds: number) => expect((await control(runtime).post('/_local/clock/advance', { seconds })).status).toBe(200);
const clockNow = async () => Date.parse((await control(runtime).post('/_local/clock/advance', { seconds: 0 })).body.now);
/** Just past the next 2-minute batch mark. */
const toNextBatch = async () => {
  const now = await clockNow();
  await advance((Math.floor(now / 120_000) + 1) * 120 - now / 1000 + 1);
};
const sheetOf = async (accountId: string) =>
  ((await control(runtime).get(`/_local/sheets?accountId=${accountId}`)).body.spreadsheets as { tabs: { Sales: unknown[][]; Customers: unknown[][] } }[])[0]!;

async function connect(client: ApiClient) {
  const link = await client.post('/sheets-sync/connect');
  const html = await (await fetch(link.body.url)).text();
  const allow = /id="allow" href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  expect((await fetch(allow)).status).toBe(200);
}

async function buy(client: ApiClient, productId: string, email: string, firstName: string, lastName: string) {
  const session = await client.post('/checkout/sessions', { productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' });
  return pay(runtime, session.body.id, { email, firstName, lastName, country: 'DE' });
}

describe('erasure and the synced spreadsheet', () => {
  it("blanks the buyer's rows already written at the next batch, and the rows still queued before they are sent", { timeout: 180_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    await connect(account.live);
    await toNextBatch();
    const product = (await account.live.post('/products', { name: 'Guide', price: 29.99 })).body;
    const first = await buy(account.live, product._id, 'erin@example.com', 'Erin', 'Rased');
    const bystander = await buy(account.live, product._id, 'bo@example.com', 'Bo', 'Ek');
    await settleWithRetries(runtime);
    await advance(120);
    const written = await sheetOf(account.accountId);
    expect(written.tabs.Sales).toHaveLength(3);
    expect(JSON.stringify(written)).toContain('erin@example.com');

    // A second order, queued and not yet written when the buyer is erased.
    await toNextBatch();
    const second = await buy(account.live, product._id, 'erin@example.com', 'Erin', 'Rased');
    await settleWithRetries(runtime);
    expect((await account.live.get('/sheets-sync')).body.counts.pending).toBeGreaterThan(0);

    const customer = ((await account.live.get('/customers')).body as { _id: string; buyerEmail: string }[]).find((c) => c.buyerEmail === 'erin@example.com')!;
    expect((await account.live.delete(`/customers/${customer._id}`)).status).toBe(202);
    await settleWithRetries(runtime);
    expect((await account.live.get(`/customers/${customer._id}/erasure`)).body).toMatchObject({
      status: 'completed',
      done: expect.arrayContaining(['sheets']),
    });
    // Until the next batch the spreadsheet still shows what was written; then it does not.
    await advance(120);
    const sheet = await sheetOf(account.accountId);
    expect(JSON.stringify(sheet)).not.toContain('erin@example.com');
    expect(JSON.stringify(sheet)).not.toContain('Erin Rased');
    // Every order keeps its row, amount and status; the bystander keeps their email and name.
    const sales = sheet.tabs.Sales.slice(1);
    expect(sales.map((row) => row[1]).sort()).toEqual([first.saleId, bystander.saleId, second.saleId].sort());
    for (const row of sales.filter((r) => r[1] !== bystander.saleId))
      expect(row.slice(4, 6).concat(row.slice(7, 8), row.slice(12))).toEqual(['', '', 29.99, 'paid']);
    expect(sales.find((r) => r[1] === bystander.saleId)!.slice(4, 6)).toEqual(['bo@example.com', 'Bo Ek']);
    const customers = sheet.tabs.Customers.slice(1);
    expect(customers).toHaveLength(2);
    expect(customers.map((row) => row.slice(1, 3))).toEqual(
      expect.arrayContaining([
        ['', ''],
        ['bo@example.com', 'Bo Ek'],
      ]),
    );
    expect((await account.live.get('/sheets-sync')).body.counts).toMatchObject({ pending: 0, failed: 0 });
  });
});
