import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { setProcessorSettings, type TaxSettings } from '../../shared/processor/settings';
import { pay } from '../support/commerce';
import { FakeStripe } from '../support/fake-stripe';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';

/**
 * Tax on the order (issue 40, item 10): when the processor computes tax (Stripe Tax in live mode,
 * turned on per account and mode; the sandbox's simulated rate in tests), the order, its
 * `order.completed` tax block and `vatNumber` carry the real figures; elsewhere they stay zero.
 */
const WHSEC = 'whsec_tax';
let runtime: LocalRuntime;
let fake: FakeStripe;
let control: ApiClient;

async function configure(account: TestAccount, mode: 'live' | 'test', provider: 'sandbox' | 'stripe', tax: TaxSettings | null) {
  const deps = runtime.adapters.deps;
  await setProcessorSettings(
    { store: deps.store, clock: deps.clock, encryption: deps.ports.encryption },
    { accountId: account.accountId, mode },
    {
      provider,
      tax,
      ...(provider === 'stripe' ? { secrets: { secretKey: 'rk_live_tax', webhookSecret: WHSEC } } : {}),
    },
  );
  (deps.ports.processor as unknown as { forget(): void }).forget();
}

async function completedEvent(account: TestAccount, mode: 'live' | 'test') {
  await settleWithRetries(runtime);
  const events = (await control.get(`/_local/events?accountId=${account.accountId}&mode=${mode}&type=order.completed`)).body.events as {
    data: Record<string, any>;
  }[];
  return events.at(-1)!.data;
}

async function checkout(api: ApiClient, price: number) {
  const product = await api.post('/products', { name: 'Course', price });
  expect(product.status, product.text).toBe(201);
  const session = await api.post('/checkout/sessions', {
    productId: product.body._id,
    successUrl: 'https://shop.example.com/ok',
    cancelUrl: 'https://shop.example.com/no',
  });
  expect(session.status, session.text).toBe(201);
  return session.body as { id: string; url: string };
}

beforeAll(async () => {
  fake = await new FakeStripe().start();
  fake.livemode = true;
  runtime = await startTestRuntime({ STRIPE_API_URL: fake.url });
  control = new ApiClient(runtime.url);
  fake.clock = () => Math.floor(runtime.clock.nowMs() / 1000);
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.stop();
});

describe('tax on the order', () => {
  it("the sandbox simulates a rate: the order and order.completed carry the tax and the buyer's VAT number; an account without tax keeps zeros", async () => {
    const taxed = await createTestAccount(runtime, 'tier2');
    await configure(taxed, 'test', 'sandbox', { simulatedRatePercent: 20 });
    const session = await checkout(taxed.test, 10);
    const paid = await pay(runtime, session.id, { email: 'eu@example.com', country: 'DE', vatNumber: 'DE123456789' });
    const order = (await taxed.test.get(`/orders/${paid.saleId}`)).body;
    expect(order).toMatchObject({ amount: 10, tax: { amount: 2, amountCents: 200, rate: 20 }, vatNumber: 'DE123456789' });
    const event = await completedEvent(taxed, 'test');
    expect(event.tax).toEqual({ taxAmount: 2, taxRate: 20 });
    expect(event.order.vatNumber).toBe('DE123456789');
    expect(event.amount).toBe(10);

    // Another account (and the same account's live mode) has no tax: zeros, as before.
    const plain = await createTestAccount(runtime, 'tier2');
    const other = await checkout(plain.test, 10);
    const plainPaid = await pay(runtime, other.id, { email: 'us@example.com', vatNumber: 'DE123456789' });
    expect((await plain.test.get(`/orders/${plainPaid.saleId}`)).body).toMatchObject({ tax: { amount: 0, rate: 0 }, vatNumber: null });
    expect((await completedEvent(plain, 'test')).tax).toEqual({ taxAmount: 0, taxRate: 0 });
    const refused = await control.post(`/_local/checkout/${other.id}/pay`, { email: 'x@example.com', vatNumber: 'D' });
    expect(refused.status).toBe(400);
  });

  it("Stripe Tax in live mode: the checkout asks Stripe for tax and VAT numbers; the order carries Stripe's figures", async () => {
    const seller = await createTestAccount(runtime, 'tier2');
    await configure(seller, 'live', 'stripe', { automatic: true });
    fake.webhook = { url: `${runtime.url}/processor/stripe/webhooks/${seller.accountId}/live`, secret: WHSEC };
    fake.setTaxRate('DE', 19);
    fake.take();
    const session = await checkout(seller.live, 10);
    const created = fake.take().find((r) => r.path === '/v1/checkout/sessions')!;
    expect(created.form).toMatchObject({ 'automatic_tax[enabled]': 'true', 'tax_id_collection[enabled]': 'true' });
    fake.completeCheckout(session.url.split('/').pop()!, { email: 'berlin@example.com', name: 'Ada Roe', country: 'DE', vatNumber: 'DE987654321' });
    expect((await fake.flush()).every((d) => d.status < 300)).toBe(true);
    const event = await completedEvent(seller, 'live');
    expect(event.amount).toBe(10);
    expect(event.tax).toEqual({ taxAmount: 1.9, taxRate: 19 });
    expect(event.order.vatNumber).toBe('DE987654321');
    const order = (await seller.live.get(`/orders/${event.order.id}`)).body;
    expect(order).toMatchObject({ amount: 10, tax: { amount: 1.9, amountCents: 190, rate: 19 }, vatNumber: 'DE987654321' });

    // A seller without Stripe Tax: no automatic tax is asked for.
    const plain = await createTestAccount(runtime, 'tier2');
    await configure(plain, 'live', 'stripe', null);
    fake.take();
    await checkout(plain.live, 10);
    expect(fake.take().find((r) => r.path === '/v1/checkout/sessions')!.form).not.toHaveProperty('automatic_tax[enabled]');
  });
});
