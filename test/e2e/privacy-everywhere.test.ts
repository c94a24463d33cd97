import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { control, createProduct, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { startReceiver } from './webhooks-receiver';
import { getCard } from '../../shared/adapters/processor-sandbox/repository';

let runtime: LocalRuntime;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  [runtime, receiver] = await Promise.all([startTestRuntime(), startReceiver()]);
});
afterAll(async () => {
  await receiver?.close();
  await runtime?.stop();
});

const settle = () => settleWithRetries(runtime);
const anonymous = () => new ApiClient(runtime.url);

async function buy(account: TestAccount, productId: string, email: string, name = { firstName: 'Erin', lastName: 'Rased' }) {
  const session = await openCheckout(account, productId);
  const paid = await pay(runtime, session.id, { email, ...name, country: 'DE' });
  await settle();
  const order = await account.test.get(`/orders/${paid.saleId}`);
  expect(order.status, order.text).toBe(200);
  return { saleId: paid.saleId!, token: String(order.body.reviewPath).split('/').pop()! };
}

/** The member-area link of the access mail (the join consumer's real mail). */
async function memberAreaOf(email: string, membershipName: string) {
  const mails = ((await control(runtime).get('/_local/emails')).body.emails as { to: string; subject: string; html: string }[]).filter(
    (m) => m.to === email && m.subject === `Your access to ${membershipName}`,
  );
  expect(mails).toHaveLength(1);
  return /href="([^"]*\/member-area\/[0-9A-Za-z]{32})"/.exec(mails[0]!.html)![1]!.replace(/^https?:\/\/[^/]+/, runtime.url);
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

describe('erasure reaches every capability that holds the buyer', () => {
  it('exports and then erases memberships, community posts, survey answers, reviews, licence keys, credits, imports, events and webhook logs; books and balances stay', {
    timeout: 180_000,
  }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const email = 'everywhere@example.com';
    expect(
      (
        await account.test.put('/attribution-survey/settings', {
          enabled: true,
          question: 'How did you hear about us?',
          options: [
            { label: 'Instagram', channel: 'instagram' },
            { label: 'YouTube', channel: 'youtube' },
          ],
          allowOther: true,
        })
      ).status,
    ).toBe(200);
    // A webhook endpoint: its delivery log keeps the bodies sent, the events API the events.
    expect((await account.test.post('/webhooks', { url: `${receiver.url}/hook`, events: ['order.completed', 'customer.created'] })).status).toBe(201);
    const course = await createProduct(account, { name: 'Workshop', price: 20, licenseKeys: { enabled: true, activationLimit: 2 } });
    const membership = (await account.test.post('/memberships', { name: 'Workshop Club', productIds: [course._id], productBuyersJoin: true })).body;
    const credits = await createProduct(account, { name: 'API credits', price: 10, productType: 'credits', creditAmount: 1000 });

    const order = await buy(account, course._id, email);
    await buy(account, credits._id, email);
    // A bystander in the same club and store stays as they are.
    await buy(account, course._id, 'bystander@example.com', { firstName: 'Bea', lastName: 'Stander' });

    // The buyer answers the survey in their own words, reviews the course and posts in the community.
    expect((await anonymous().post(`/survey/${order.token}`, { answer: 'other', otherText: 'Erin Rased told me' })).status).toBe(200);
    expect((await anonymous().post(`/reviews/submit/${order.token}`, { rating: 5, title: 'Great', body: 'Useful' })).status).toBe(201);
    const area = await memberAreaOf(email, 'Workshop Club');
    const csrf = csrfOf(await (await fetch(`${area}/community`)).text());
    const posted = await fetch(`${area}/community`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, title: 'Hello from Erin', body: 'My bench' }).toString(),
    });
    expect(posted.status).toBe(303);
    // An old newsletter list imported: its report rows hold the address.
    const imported = await account.test.post('/migrations', {
      source: 'csv',
      files: [{ kind: 'subscribers', filename: 's.csv', csv: `Email,Status\n${email},subscribed\nbea@example.com,subscribed\n` }],
    });
    expect(imported.status, imported.text).toBe(201);
    expect((await account.test.post(`/migrations/${imported.body._id}/start`)).status).toBe(202);
    await settle();
    const rowsPath = `/migrations/${imported.body._id}/rows?kind=subscribers`;
    const rowsBefore = (await account.test.get(rowsPath)).body.rows as { row: number; state: string }[];
    expect(JSON.stringify(rowsBefore)).toContain(email);

    const customer = ((await account.test.get('/customers')).body as { _id: string; buyerEmail: string }[]).find((c) => c.buyerEmail === email)!;
    const answer = await account.test.get(`/customers/${customer._id}/export`);
    expect(answer.status, answer.text).toBe(200);
    const exported = await (await fetch(answer.body.url)).json();
    const parts = exported.parts;
    expect(parts.memberships).toEqual([expect.objectContaining({ membershipId: membership._id, membershipName: 'Workshop Club', email, status: 'active' })]);
    expect(parts.community).toEqual([expect.objectContaining({ kind: 'thread', title: 'Hello from Erin', authorEmail: email })]);
    expect(parts.survey).toEqual([expect.objectContaining({ saleId: order.saleId, answerId: 'other', otherText: 'Erin Rased told me' })]);
    expect(parts.reviews).toEqual([expect.objectContaining({ saleId: order.saleId, rating: 5, buyerEmail: email })]);
    expect(parts.licenseKeys).toEqual([
      expect.objectContaining({ orderId: order.saleId, key: expect.stringMatching(/^[A-Z0-9]{5}(-[A-Z0-9]{5}){5}$/), status: 'active' }),
    ]);
    expect(parts.credits).toEqual([expect.objectContaining({ productId: credits._id, buyerEmail: email, balanceCents: 1000 })]);
    expect(parts.downloads).toEqual([]);
    const key = parts.licenseKeys[0].key as string;

    // The sandbox processor keeps the card the buyer paid with, under their address.
    const cardId = (await account.test.get(`/orders/${order.saleId}`)).body.paymentMethod.id as string;
    const sandboxScope = { accountId: account.accountId, mode: 'test' as const };
    expect(await getCard(runtime.deps.store, sandboxScope, cardId)).toMatchObject({ email });

    // Before: the logs name the buyer.
    const logsBefore = {
      events: (await account.test.get('/events?limit=100')).body,
      deliveries: (await account.test.get('/delivered-webhooks?limit=100')).body,
    };
    expect(JSON.stringify(logsBefore.events)).toContain(email);
    expect(JSON.stringify(logsBefore.deliveries)).toContain(email);

    const erased = await account.test.delete(`/customers/${customer._id}`);
    expect(erased.status, erased.text).toBe(202);
    await settle();
    const status = (await account.test.get(`/customers/${customer._id}/erasure`)).body;
    expect(status.status).toBe('completed');
    expect(status.done).toEqual(
      expect.arrayContaining([
        'memberships',
        'community',
        'survey',
        'reviews',
        'licenseKeys',
        'credits',
        'events',
        'webhookLog',
        'imports',
        'processorCustomer',
      ]),
    );

    // No list or read shows the address or the name any more.
    const threads = await account.test.get(`/memberships/${membership._id}/threads`);
    const reads = [
      `/memberships/${membership._id}/members`,
      `/memberships/${membership._id}/threads`,
      `/memberships/${membership._id}/threads/${threads.body.data[0]._id}`,
      '/reviews',
      '/licenses',
      '/credits/accounts',
      `/orders/${order.saleId}`,
      '/orders',
      '/customers',
      '/events?limit=100',
      '/delivered-webhooks?limit=100',
      rowsPath,
    ];
    for (const path of reads) {
      const res = await account.test.get(path);
      expect(res.status, path).toBe(200);
      expect(res.text, path).not.toContain(email);
      expect(res.text, path).not.toContain('Erin Rased');
    }
    // What others wrote with it and the books stay: the thread, the rating, the key, the balance, the bystander.
    expect(threads.body.data).toEqual([expect.objectContaining({ title: 'Hello from Erin' })]);
    expect((await account.test.get('/reviews')).body).toEqual(expect.arrayContaining([expect.objectContaining({ saleId: order.saleId, rating: 5 })]));
    expect((await anonymous().post('/licenses/validate', { key })).body).toMatchObject({ valid: true });
    const accounts = (await account.test.get('/credits/accounts')).body as { productId: string; balanceCents: number }[];
    expect(accounts.find((a) => a.productId === credits._id)).toMatchObject({ balanceCents: 1000 });
    expect((await account.test.get(`/orders/${order.saleId}`)).body).toMatchObject({ customerId: customer._id, country: 'DE' });
    expect((await account.test.get(`/memberships/${membership._id}/members`)).text).toContain('bystander@example.com');
    // The processor's card no longer names the buyer, and is no longer kept for charges.
    expect(await getCard(runtime.deps.store, sandboxScope, cardId)).toMatchObject({ email: '', saved: false, last4: '4242' });
    // The logs keep every entry, without the buyer.
    const idsOf = (list: { id: string }[]) => list.map((e) => e.id).sort();
    expect(logsBefore.events.events.length).toBeGreaterThan(2);
    expect(idsOf((await account.test.get('/events?limit=100')).body.events)).toEqual(idsOf(logsBefore.events.events));
    expect(idsOf((await account.test.get('/delivered-webhooks?limit=100')).body.deliveries)).toEqual(idsOf(logsBefore.deliveries.deliveries));
    // The import report keeps its rows and outcomes; the other subscriber's row is untouched.
    const rowsAfter = (await account.test.get(rowsPath)).body.rows as { row: number; state: string; problem: string | null }[];
    expect(rowsAfter.map((r) => r.row)).toEqual(rowsBefore.map((r) => r.row));
    expect(rowsAfter.find((r) => r.state === 'skipped')?.problem).toContain('erased');
    expect(rowsAfter.filter((r) => r.state !== 'skipped')).toEqual([expect.objectContaining({ state: 'created' })]);
    expect((await account.test.get(rowsPath)).text).toContain('bea@example.com');
    // The member-area link stopped working.
    expect((await fetch(area, { redirect: 'manual' })).status).toBeGreaterThanOrEqual(400);

    // Erasing again changes nothing and says why; the parts do not run again.
    const again = await account.test.delete(`/customers/${customer._id}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('CUSTOMER_ERASED');
    expect((await account.test.get(`/customers/${customer._id}/erasure`)).body).toEqual(status);
  });
});
