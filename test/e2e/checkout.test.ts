import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createOffer, createProduct, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let account: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  account = await createTestAccount(runtime, 'volume');
});
afterAll(async () => runtime?.stop());

describe('checkout sessions', () => {
  it('validates the request and changes nothing on bad input', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Guide', price: 29.99 });
    const bad = [
      [{ productId: product._id, successUrl: 'ftp://x.example.com', cancelUrl: 'https://x.example.com' }, 'successUrl'],
      [{ productId: product._id, successUrl: '/relative', cancelUrl: 'https://x.example.com' }, 'successUrl'],
      [{ productId: product._id, successUrl: 'https://x.example.com', cancelUrl: 'nope' }, 'cancelUrl'],
      [
        { productId: product._id, successUrl: 'https://x.example.com', cancelUrl: 'https://x.example.com', clientReferenceId: 'x'.repeat(257) },
        'clientReferenceId',
      ],
      [{ successUrl: 'https://x.example.com', cancelUrl: 'https://x.example.com' }, 'productId'],
      [{ productId: product._id, successUrl: 'https://x.example.com', cancelUrl: 'https://x.example.com', metadata: 'text' }, 'metadata'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await account.test.post('/checkout/sessions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const missing = await account.test.post('/checkout/sessions', {
      productId: 'a'.repeat(24),
      successUrl: 'https://x.example.com',
      cancelUrl: 'https://x.example.com',
    });
    expect(missing.status).toBe(404);
    // The other mode cannot buy a test-mode product.
    const live = await account.live.post('/checkout/sessions', {
      productId: product._id,
      successUrl: 'https://x.example.com',
      cancelUrl: 'https://x.example.com',
    });
    expect(live.status).toBe(404);
    expect(await events(runtime, account, 'order.completed')).toHaveLength(0);
  });

  it('sells a one-time product: sale, customer, order events with metadata and clientReferenceId', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Ebook', price: 19.5 });
    const session = await openCheckout(account, product._id, { externalId: 'ext-42', metadata: { campaign: 'spring', n: 1 } });
    expect(session.url).toMatch(/\/processor\/sandbox\/checkout\/cs_/);
    const paid = await pay(runtime, session.id, { email: 'Ann@Example.com', firstName: 'Ann', lastName: 'Lee', country: 'US' });
    expect(paid.status).toBe('paid');
    expect(paid.saleId).toMatch(/^[0-9a-f]{24}$/);

    const completed = await events(runtime, account, 'order.completed');
    const mine = completed.filter((e) => e.data.order.id === paid.saleId);
    expect(mine).toHaveLength(1);
    const data = mine[0]!.data;
    expect(Object.keys(data).sort()).toEqual(
      ['order', 'amount', 'currency', 'product', 'customer', 'paymentMethod', 'tax', 'discount', 'metadata', 'clientReferenceId'].sort(),
    );
    expect(data.order).toMatchObject({ id: paid.saleId, variantId: null, vatNumber: null, productId: product._id });
    expect(data.order.paymentIntentId).toMatch(/^pay_/);
    expect(data.order.planId).toMatch(/^plan_/);
    expect(data.amount).toBe(19.5);
    expect(data.metadata).toEqual({ campaign: 'spring', n: 1 });
    expect(data.clientReferenceId).toBe('ext-42');
    expect(data.paymentMethod).toMatchObject({ type: 'card', brand: 'visa', last4: '4242' });
    expect(data.paymentMethod.id).toMatch(/^payt_/);
    expect(data.tax).toEqual({ taxAmount: 0, taxRate: 0 });
    const created = (await events(runtime, account, 'customer.created')).filter((e) => e.data.order?.id === paid.saleId);
    expect(created).toHaveLength(1);
    expect(created[0]!.data.customer).toMatchObject({ email: 'ann@example.com', firstName: 'Ann', numberOfOrders: 1 });

    const order = await account.test.get(`/orders/${paid.saleId}`);
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      _id: paid.saleId,
      type: 'one_time',
      status: 'completed',
      amount: 19.5,
      amountCents: 1950,
      buyerEmail: 'ann@example.com',
      clientReferenceId: 'ext-42',
    });
    expect((await account.live.get(`/orders/${paid.saleId}`)).status).toBe(404);
    const orders = await account.test.get('/orders');
    expect(orders.body.map((o: any) => o._id)).toContain(paid.saleId);

    const payment = await account.test.get(`/payments/${paid.saleId}?live=true`);
    expect(payment.body.product).toMatchObject({ _id: product._id, name: 'Ebook' });
    expect(payment.body.customer).toMatchObject({ buyerEmail: 'ann@example.com' });
    expect(payment.body.processor.paymentIntentId).toMatch(/^pay_/);
    expect(payment.body.processorLive).toMatchObject({ status: 'succeeded', amountCents: 1950 });

    // A second purchase by the same email reuses the customer.
    const again = await pay(runtime, (await openCheckout(account, product._id)).id, { email: 'ann@example.com' });
    const customers = await account.test.get(`/customers?productId=${product._id}`);
    expect(customers.body).toHaveLength(1);
    expect(customers.body[0]).toMatchObject({ buyerEmail: 'ann@example.com', numberOfOrders: 2, productId: product._id, testMode: true });
    expect((await account.test.get(`/customers/${customers.body[0]._id}`)).body.numberOfOrders).toBe(2);
    expect(again.saleId).not.toBe(paid.saleId);
  });

  it('pays through the hosted page form (declined card, then a good one) and redirects to successUrl', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Poster', price: 5 });
    const session = await openCheckout(account, product._id, { clientReferenceId: 'form-1' });
    const page = await fetch(session.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain('method="post" enctype="multipart/form-data"');
    const form = (card: string) => {
      const f = new FormData();
      f.set('email', 'form@example.com');
      f.set('firstName', 'Fay');
      f.set('country', 'de');
      f.set('cardNumber', card);
      f.set('expiry', '12/34');
      f.set('cvc', '123');
      return f;
    };
    const declined = await fetch(session.url, { method: 'POST', body: form('4000000000000002'), redirect: 'manual' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('declined');
    const ok = await fetch(session.url, { method: 'POST', body: form('4242 4242 4242 4242'), redirect: 'manual' });
    expect(ok.status).toBe(303);
    // The thank-you page, then successUrl with the session id.
    const thanksPath = ok.headers.get('location')!;
    expect(thanksPath).toBe(`${new URL(session.url).pathname}/thanks`);
    const thanks = await (await fetch(new URL(thanksPath, session.url))).text();
    expect(thanks).toContain(`https://shop.example.com/thanks?session_id=${session.id}`);
    const completed = (await events(runtime, account, 'order.completed')).filter((e) => e.data.clientReferenceId === 'form-1');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data.customer).toMatchObject({ email: 'form@example.com', firstName: 'Fay', country: 'DE' });
    // Paying twice is harmless.
    const twice = await fetch(session.url, { method: 'POST', body: form('4242424242424242'), redirect: 'manual' });
    expect(twice.status).toBe(303);
    expect((await events(runtime, account, 'order.completed')).filter((e) => e.data.clientReferenceId === 'form-1')).toHaveLength(1);
  });

  it('completes a free order without a card, with the free-order payload differences', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Freebie', price: 0 });
    const session = await openCheckout(account, product._id, { clientReferenceId: 'free-1' });
    const paid = await pay(runtime, session.id, { email: 'free@example.com' });
    expect(paid.status).toBe('paid');
    const event = (await events(runtime, account, 'order.completed')).find((e) => e.data.order.id === paid.saleId)!;
    expect(event.data.amount).toBe(0);
    expect(event.data.order).not.toHaveProperty('paymentIntentId');
    expect(event.data.order).not.toHaveProperty('planId');
    expect(event.data.tax).toEqual({ amount: 0, rate: 0 });
    expect(event.data.paymentMethod).toBeNull();
    const refund = await control(runtime).post(`/_local/sales/${paid.saleId}/refund`, {});
    expect(refund.status).toBe(400);
  });

  it('refunds partially then fully, replaying metadata; disputes another order', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Course', price: 100 });
    const session = await openCheckout(account, product._id, { clientReferenceId: 'ref-9', metadata: { orderRef: 'A9' } });
    const paid = await pay(runtime, session.id, { email: 'refund@example.com' });
    const partial = await control(runtime).post(`/_local/sales/${paid.saleId}/refund`, { amountCents: 2500 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'completed', refundedCents: 2500 });
    const tooMuch = await control(runtime).post(`/_local/sales/${paid.saleId}/refund`, { amountCents: 999999 });
    expect(tooMuch.status).toBe(400);
    const full = await control(runtime).post(`/_local/sales/${paid.saleId}/refund`, {});
    expect(full.body).toMatchObject({ status: 'refunded', refundedCents: 10000 });
    const refunds = (await events(runtime, account, 'order.refunded')).filter((e) => e.data.order.id === paid.saleId);
    expect(refunds.map((e) => [e.data.amount, e.data.refund.full])).toEqual([
      [25, false],
      [75, true],
    ]);
    for (const e of refunds) {
      expect(e.data.metadata).toEqual({ orderRef: 'A9' });
      expect(e.data.clientReferenceId).toBe('ref-9');
    }
    expect((await account.test.get(`/orders/${paid.saleId}`)).body.status).toBe('refunded');

    const other = await pay(runtime, (await openCheckout(account, product._id)).id, { email: 'dispute@example.com' });
    const disputed = await control(runtime).post(`/_local/sales/${other.saleId}/dispute`, {});
    expect(disputed.body.status).toBe('disputed');
    expect((await account.test.get(`/orders/${other.saleId}`)).body.status).toBe('disputed');
    expect((await account.test.get(`/payments/${other.saleId}?live=true`)).body.processorLive.status).toBe('disputed');
  });

  it('refunds through the API: partial, full, never more than is left, never another account or mode', { timeout: 240_000 }, async () => {
    const product = await createProduct(account, { name: 'Workshop', price: 40 });
    const paid = await pay(runtime, (await openCheckout(account, product._id)).id, { email: 'api-refund@example.com' });
    const other = await createTestAccount(runtime);
    expect((await other.test.post(`/payments/${paid.saleId}/refund`, {})).status).toBe(404);
    expect((await account.live.post(`/payments/${paid.saleId}/refund`, {})).status).toBe(404);
    expect((await account.test.post(`/payments/${paid.saleId}/refund`, { amountCents: -5 })).status).toBe(400);
    const tooMuch = await account.test.post(`/payments/${paid.saleId}/refund`, { amountCents: 4001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('REFUND_TOO_LARGE');
    const partial = await account.test.post(`/payments/${paid.saleId}/refund`, { amountCents: 1000 });
    expect(partial.status).toBe(202);
    expect(partial.body.refund).toEqual({ requestedCents: 1000, status: 'pending' });
    await settleWithRetries(runtime);
    expect((await account.test.get(`/payments/${paid.saleId}`)).body).toMatchObject({ status: 'completed', refundedCents: 1000 });
    const rest = await account.test.post(`/payments/${paid.saleId}/refund`, {});
    expect(rest.body.refund.requestedCents).toBe(3000);
    await settleWithRetries(runtime);
    expect((await account.test.get(`/orders/${paid.saleId}`)).body).toMatchObject({ status: 'refunded', refundedCents: 4000 });
    const again = await account.test.post(`/payments/${paid.saleId}/refund`, {});
    expect([again.status, again.body.code]).toEqual([409, 'ALREADY_REFUNDED']);
    const refunds = (await events(runtime, account, 'order.refunded')).filter((e) => e.data.order.id === paid.saleId);
    expect(refunds.map((e) => e.data.amount)).toEqual([10, 30]);
  });

  it('lists payments by type and creates customers through the API', { timeout: 240_000 }, async () => {
    const offer = await createOffer(account, { name: 'Club', price: 9, frequency: 'monthly' });
    const sub = await pay(runtime, (await openCheckout(account, offer._id)).id, { email: 'member@example.com' });
    const subscriptionPayments = await account.test.get('/payments?type=subscription');
    expect(subscriptionPayments.body.length).toBe(1);
    expect(subscriptionPayments.body[0]).toMatchObject({
      type: 'subscription',
      billingReason: 'initial',
      productId: '',
      subscriptionId: offer._id,
      subscriberId: sub.subscriberId,
    });
    const oneTime = await account.test.get('/payments?type=one_time');
    expect(oneTime.body.every((p: any) => p.type === 'one_time')).toBe(true);
    expect((await account.test.get('/orders')).body.every((p: any) => p.type === 'one_time')).toBe(true);
    expect((await account.test.get('/payments?type=other')).status).toBe(400);

    const created = await account.test.post('/customers', { email: 'New@Example.com', firstName: 'Neo' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ buyerEmail: 'new@example.com', numberOfOrders: 0 });
    expect((await account.test.post('/customers', { email: 'new@example.com' })).status).toBe(409);
    expect((await account.test.post('/customers', { email: 'not-an-email' })).body.field).toBe('email');
    const event = (await events(runtime, account, 'customer.created')).find((e) => e.data._id === created.body._id)!;
    expect(event.data).toEqual(created.body);
    const sorted = await account.test.get('/customers?sort=orders');
    expect(sorted.body[0].numberOfOrders).toBeGreaterThanOrEqual(sorted.body[sorted.body.length - 1].numberOfOrders);
  });
});
