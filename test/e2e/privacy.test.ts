import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { createOffer, createProduct, events, openCheckout, pay } from '../support/commerce';
import { joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

async function buy(account: TestAccount, email: string, price = 19) {
  const product = await createProduct(account, { name: 'Field Guide', price });
  const session = await openCheckout(account, product._id);
  const paid = await pay(runtime, session.id, { email, firstName: 'Erin', lastName: 'Rased', country: 'DE' });
  await settleWithRetries(runtime);
  return { productId: product._id, saleId: paid.saleId! };
}

/** The export's answer is a link; the JSON is behind it, without the key. */
async function exportOf(account: TestAccount, customerId: string) {
  const answer = await account.test.get(`/customers/${customerId}/export`);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body).toMatchObject({ url: expect.stringContaining('/customer-exports/'), validUntil: expect.any(String), bytes: expect.any(Number) });
  const file = await fetch(answer.body.url);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toContain('application/json');
  expect(file.headers.get('cache-control')).toBe('no-store');
  const text = await file.text();
  expect(Buffer.byteLength(text)).toBe(answer.body.bytes);
  return { url: answer.body.url as string, body: JSON.parse(text) };
}

async function customerOf(account: TestAccount, email: string) {
  const list = await account.test.get('/customers');
  return (list.body as { _id: string; buyerEmail: string }[]).find((c) => c.buyerEmail === email);
}

describe('buyer export and erasure', () => {
  it('exports everything about a buyer, erases it everywhere at once, keeps the books and refuses to bring the buyer back', { timeout: 120_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const other = await createTestAccount(runtime, 'volume');
    const email = 'erin@example.com';
    const first = await buy(account, email, 19);
    const second = await buy(account, email, 7);
    // The same buyer at another store is not touched.
    await buy(other, email, 5);
    const customer = (await customerOf(account, email))!;
    expect(customer).toBeTruthy();

    // Export: owner only (a member with the orders area is refused), JSON of every part.
    const orders = await account.live.post('/team/teams', { name: 'Orders', areas: ['orders'] });
    const member = await joinTeam(runtime, account, 'clerk@example.com', 'member', [orders.body._id]);
    expect((await member.client.get(`/customers/${customer._id}/export`)).status).toBe(403);
    const exported = await exportOf(account, customer._id);
    // The link is a capability: an unknown token is 404.
    expect((await fetch(exported.url.replace(/[A-Za-z0-9]{32}$/, 'x'.repeat(32)))).status).toBe(404);
    expect(exported.body).toMatchObject({ customerId: customer._id, email, mode: 'test' });
    expect(exported.body.parts.customer).toEqual([expect.objectContaining({ _id: customer._id, buyerEmail: email, firstName: 'Erin' })]);
    expect(exported.body.parts.orders.map((o: { _id: string }) => o._id).sort()).toEqual([first.saleId, second.saleId].sort());
    expect(exported.body.parts.contact).toEqual([expect.objectContaining({ email })]);
    // Another account's key sees nothing of it; an unknown id is 404.
    expect((await other.test.get(`/customers/${customer._id}/export`)).status).toBe(404);
    expect((await account.test.get('/customers/000000000000000000000000/export')).status).toBe(404);

    // Erase: 202, and at once no list or read shows the buyer.
    expect((await member.client.delete(`/customers/${customer._id}`)).status).toBe(403);
    const erased = await account.test.delete(`/customers/${customer._id}`);
    expect(erased.status, erased.text).toBe(202);
    expect(erased.body).toMatchObject({ customerId: customer._id, done: expect.arrayContaining(['customer', 'contact']) });
    expect((await account.test.get('/customers')).text).not.toContain(email);
    expect((await account.test.get(`/customers/${customer._id}`)).status).toBe(404);
    expect((await account.test.get('/newsletters/subscribers?limit=100')).text).not.toContain(email);

    await settleWithRetries(runtime);
    const status = await account.test.get(`/customers/${customer._id}/erasure`);
    expect(status.body).toMatchObject({
      status: 'completed',
      done: [
        'community',
        'contact',
        'credits',
        'customer',
        'events',
        'imports',
        'licenseKeys',
        'memberships',
        'orders',
        'processorCustomer',
        'reviews',
        'sheets',
        'subscriptions',
        'survey',
        'webhookLog',
      ],
    });
    for (const path of ['/orders', '/payments', '/customers', '/newsletters/subscribers?limit=100', `/payments/${first.saleId}`, `/orders/${second.saleId}`]) {
      const res = await account.test.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(email);
      expect(res.text, path).not.toContain('Rased');
    }
    // The books stay: amounts, currency, product and country under the customer id.
    const order = (await account.test.get(`/orders/${first.saleId}`)).body;
    expect(order).toMatchObject({ customerId: customer._id, country: 'DE', productId: first.productId });
    const payments = (await account.test.get('/payments')).body as { _id: string; amountCents?: number; price?: number }[];
    expect(payments.map((p) => p._id).sort()).toEqual([first.saleId, second.saleId].sort());
    expect(JSON.stringify(payments.find((p) => p._id === first.saleId))).toMatch(/19/);
    expect((await events(runtime, account, 'customer.erased')).map((e) => e.data)).toEqual([{ customerId: customer._id, erasedAt: status.body.completedAt }]);
    // The other store still has its buyer.
    expect(await customerOf(other, email)).toBeTruthy();

    // Twice, or an unknown id: a clear answer, nothing more changes.
    const again = await account.test.delete(`/customers/${customer._id}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CUSTOMER_ERASED');
    expect((await account.test.delete('/customers/000000000000000000000000')).status).toBe(404);
    expect((await account.test.get(`/customers/${customer._id}/export`)).status).toBe(409);
    await settleWithRetries(runtime);
    // Nothing more happened: one customer.erased, the erasure as it was, the books as they were.
    expect(await events(runtime, account, 'customer.erased')).toHaveLength(1);
    expect((await account.test.get(`/customers/${customer._id}/erasure`)).body).toEqual(status.body);
    expect(((await account.test.get('/payments')).body as unknown[]).length).toBe(2);

    // Not brought back: by hand, or by an old export imported again.
    const recreated = await account.test.post('/customers', { email });
    expect(recreated.status).toBe(409);
    expect(recreated.body.code).toBe('EMAIL_ERASED');
    const csv = `Email,Status\n${email},subscribed\nnew-${Date.now()}@example.com,subscribed\n`;
    const imported = await account.test.post('/migrations', { source: 'csv', files: [{ kind: 'subscribers', filename: 's.csv', csv }] });
    expect(imported.status, imported.text).toBe(201);
    expect((await account.test.post(`/migrations/${imported.body._id}/start`)).status).toBe(202);
    await settleWithRetries(runtime);
    const rows = (await account.test.get(`/migrations/${imported.body._id}/rows?kind=subscribers`)).body.rows as {
      row: number;
      state: string;
      problem: string | null;
    }[];
    expect(rows.map((r) => [r.row, r.state])).toEqual([
      [1, 'skipped'],
      [2, 'created'],
    ]);
    expect(rows[0]!.problem).toContain('erased');
    expect((await account.test.get('/newsletters/subscribers?limit=100')).text).not.toContain(email);
    expect((await account.test.get('/customers')).text).not.toContain(email);
  });

  it('waits for a running subscription to be canceled, then erases the subscriber too', { timeout: 120_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const email = 'sub@example.com';
    const offer = await createOffer(account, { name: 'Club', price: 9, frequency: 'monthly' });
    const session = await openCheckout(account, offer._id);
    const paid = await pay(runtime, session.id, { email, firstName: 'Sam' });
    await settleWithRetries(runtime);
    const customer = (await customerOf(account, email))!;
    const exported = await exportOf(account, customer._id);
    expect(exported.body.parts.subscriptions).toEqual([expect.objectContaining({ _id: paid.subscriberId, buyerEmail: email })]);

    const blocked = await account.test.delete(`/customers/${customer._id}`);
    expect(blocked.status).toBe(409);
    expect(blocked.body.code).toBe('ERASURE_BLOCKED');
    // Nothing changed: the customer is still there and can be exported.
    expect((await account.test.get(`/customers/${customer._id}`)).status).toBe(200);

    expect((await account.test.post(`/subscriptions/${paid.subscriberId}/cancel`, {})).status).toBeLessThan(300);
    await settleWithRetries(runtime);
    expect((await account.test.delete(`/customers/${customer._id}`)).status).toBe(202);
    await settleWithRetries(runtime);
    expect((await account.test.get(`/customers/${customer._id}/erasure`)).body.status).toBe('completed');
    const subscriber = await account.test.get(`/subscriptions/subscribers/${paid.subscriberId}`);
    expect(subscriber.text).not.toContain(email);
    expect(subscriber.text).not.toContain('Sam');
    expect((await account.test.get('/subscriptions/subscribers')).text).not.toContain(email);
  });
});
