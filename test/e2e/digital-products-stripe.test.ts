import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { setProcessorSettings } from '../../shared/processor/settings';
import { FakeStripe } from '../support/fake-stripe';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';

/**
 * Digital goods for live money: the account's live mode uses Stripe (the stateful fake Stripe,
 * whose checkout page and bank act as the buyer). A pay-what-you-want amount and a buy link reach
 * Stripe's session as the price charged; a paid order delivers its file (bytes round trip) and its
 * licence key; a refund made through the API ends both once Stripe reports it.
 */
const WHSEC = 'whsec_digital';
let runtime: LocalRuntime;
let fake: FakeStripe;
let seller: TestAccount;

async function settle() {
  const failed = (await fake.flush()).filter((d) => d.status >= 300);
  if (failed.length) throw new Error(`webhook refused: ${JSON.stringify(failed.map((d) => [d.event.type, d.status, d.body]))}`);
  await settleWithRetries(runtime);
}

/** The buyer pays the Stripe Checkout Session behind a checkout URL; the order the seller sees. */
async function buyOnStripe(checkoutUrl: string, email: string) {
  const session = fake.completeCheckout(checkoutUrl.split('/').pop()!, { email, name: 'Ada Roe', country: 'US' }) as { amount_total: number };
  await settle();
  const orders = (await seller.live.get('/orders')).body as { _id: string; buyerEmail: string }[];
  const order = orders.find((o) => o.buyerEmail === email);
  expect(order, JSON.stringify(orders)).toBeDefined();
  return { charged: session.amount_total, order: (await seller.live.get(`/orders/${order!._id}`)).body };
}

beforeAll(async () => {
  fake = await new FakeStripe().start();
  fake.livemode = true;
  runtime = await startTestRuntime({ STRIPE_API_URL: fake.url });
  fake.clock = () => Math.floor(runtime.clock.nowMs() / 1000);
  seller = await createTestAccount(runtime, 'tier2');
  const deps = runtime.adapters.deps;
  await setProcessorSettings(
    { store: deps.store, clock: deps.clock, encryption: deps.ports.encryption },
    { accountId: seller.accountId, mode: 'live' },
    { provider: 'stripe', secrets: { secretKey: 'rk_live_digital', webhookSecret: WHSEC } },
  );
  (deps.ports.processor as unknown as { forget(): void }).forget();
  fake.webhook = { url: `${runtime.url}/processor/stripe/webhooks/${seller.accountId}/live`, secret: WHSEC };
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
  await fake?.stop();
});

describe('digital products on Stripe (live mode)', () => {
  it('pay what you want: the amount the buyer chose is what Stripe charges and the order carries; under the minimum opens nothing', {
    timeout: 240_000,
  }, async () => {
    const product = (await seller.live.post('/products', { name: 'Zine', price: 10, payWhatYouWant: { enabled: true, minimumPrice: 3 } })).body;
    const base = { productId: product._id, successUrl: 'https://shop.example.com/thanks', cancelUrl: 'https://shop.example.com/cart' };
    const before = fake.model.list('checkout.session', () => true).length;
    const low = await seller.live.post('/checkout/sessions', { ...base, amountCents: 250 });
    expect(low.status).toBe(400);
    expect(fake.model.list('checkout.session', () => true).length).toBe(before);

    const session = await seller.live.post('/checkout/sessions', { ...base, amountCents: 725 });
    expect(session.status, session.text).toBe(201);
    const { charged, order } = await buyOnStripe(session.body.url, 'pwyw-stripe@example.com');
    expect(charged).toBe(725);
    expect(order).toMatchObject({ amountCents: 725, status: 'completed' });

    // A buy link with ?amount= opens a Stripe session at that amount.
    const opened = await fetch(`${runtime.url}/buy/${product._id}?amount=12.5&email=link-stripe%40example.com`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const location = opened.headers.get('location')!;
    expect(location).not.toContain('/processor/sandbox/');
    // Stripe's page fills in the link's address. Opened from no page, Stripe returns the buyer to a
    // thank-you page (never the link again: that would open a new checkout) or, cancelled, to the product.
    const stripeSession = fake.model.get(location.split('/').pop()!, 'checkout.session');
    expect(stripeSession._params.customer_email).toBe('link-stripe@example.com');
    expect(stripeSession.success_url).toBe(`${runtime.url}/buy/${product._id}/thanks`);
    expect(stripeSession.cancel_url).toBe(`${runtime.url}/buy/${product._id}?view=product`);
    const sessionsBefore = fake.model.list('checkout.session', () => true).length;
    const thanks = await fetch(stripeSession.success_url, { redirect: 'manual', headers: { 'accept-language': 'de' } });
    expect(thanks.status).toBe(200);
    expect(await thanks.text()).toContain('Ihre Quittung ist unterwegs');
    const back = await fetch(stripeSession.cancel_url, { redirect: 'manual' });
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Zine');
    expect(fake.model.list('checkout.session', () => true).length).toBe(sessionsBefore);
    const viaLink = await buyOnStripe(location, 'link-stripe@example.com');
    expect(viaLink.charged).toBe(1250);
    expect(viaLink.order.amountCents).toBe(1250);

    // A fixed-price product's buy link with ?discount=: Stripe charges the discounted price.
    const poster = (await seller.live.post('/products', { name: 'Poster', price: 20 })).body;
    expect(
      (await seller.live.post('/discounts', { name: 'Half', code: 'HALF', valueType: 'percentage', value: 50, mainProductIds: [poster._id] })).status,
    ).toBe(201);
    const discounted = await fetch(`${runtime.url}/buy/${poster._id}?discount=half`, { redirect: 'manual' });
    expect(discounted.status).toBe(303);
    const half = await buyOnStripe(discounted.headers.get('location')!, 'half-stripe@example.com');
    expect(half.charged).toBe(1000);
    expect(half.order.amountCents).toBe(1000);
  });

  it('a paid order downloads its file byte for byte and activates its key; a refund through the API ends both', { timeout: 240_000 }, async () => {
    const product = (
      await seller.live.post('/products', { name: 'Synth plugin', price: 29, downloadLimit: 5, licenseKeys: { enabled: true, activationLimit: 1 } })
    ).body;
    const bytes = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 13) % 256));
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)]), 'plugin.zip');
    expect((await seller.live.post(`/products/${product._id}/files`, form)).status).toBe(201);

    const session = await seller.live.post('/checkout/sessions', {
      productId: product._id,
      successUrl: 'https://shop.example.com/thanks',
      cancelUrl: 'https://shop.example.com/cart',
    });
    expect(session.status, session.text).toBe(201);
    const { charged, order } = await buyOnStripe(session.body.url, 'files-stripe@example.com');
    expect(charged).toBe(2900);
    expect(order.downloads).toEqual([expect.objectContaining({ name: 'plugin.zip', size: bytes.length })]);
    const file = await fetch(order.downloads[0].url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    const [{ key }] = order.licenseKeys;
    const api = new ApiClient(runtime.url);
    expect((await api.post('/licenses/activate', { key, instanceName: 'Studio' })).status).toBe(200);
    expect((await api.post('/licenses/validate', { key })).body).toMatchObject({ valid: true, license: { status: 'active' } });
    // The receipt links to the page that signs fresh links.
    const receipt = (
      (await api.get(`/_local/emails?to=${encodeURIComponent('files-stripe@example.com')}`)).body.emails as { subject: string; text: string }[]
    ).find((m) => m.subject.startsWith('Your receipt'))!;
    const receiptPage = /Download your files: (\S+)/.exec(receipt.text)![1]!;
    expect(await (await fetch(receiptPage)).text()).toContain('plugin.zip');

    const refund = await seller.live.post(`/payments/${order._id}/refund`, {});
    expect(refund.status, refund.text).toBeLessThan(300);
    await settle();
    const after = (await seller.live.get(`/orders/${order._id}`)).body;
    expect(after.downloads).toEqual([]);
    expect(after.licenseKeys).toEqual([expect.objectContaining({ key, status: 'refunded' })]);
    expect((await fetch(order.downloads[0].url)).status).toBe(403);
    expect((await api.post('/licenses/validate', { key })).body).toMatchObject({ valid: false, license: { status: 'refunded' } });
    expect(await (await fetch(receiptPage)).text()).toContain('no longer available');
  });
});
