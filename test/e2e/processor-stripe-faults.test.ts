import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeStripe, type StripeRequest } from '../support/fake-stripe';
import { scenarioTools, stripeDriver, type Driver, type ScenarioEnv } from '../support/processor-drivers';
import { ApiClient, startTestRuntime } from '../support/runtime';

/**
 * Stripe's faults end to end, on the stateful fake (issue 39 item 5): a charge whose answer is lost
 * (5xx after Stripe acted, held past the SDK's timeout, rate-limited) is tried again with the same
 * idempotency key and charged once; a refused card, an expired saved card and a missing payment
 * method end in the spec's states, with the buyer mailed where the service mails, never a 5xx
 * answer or a dead letter.
 */
const env = {} as ScenarioEnv;
const { settle, advanceDays, subscriber, offer, untilPastDue } = scenarioTools(env);
let d: Driver;

const mailsTo = async (email: string) => (await env.control.get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails as { subject: string }[];
const deadLetters = async () => (await env.control.get('/_local/dead-letters')).body.deadLetters as unknown[];
const intentPosts = () => env.fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
const apiError = (status: number, type: string, code?: string) => ({
  status,
  body: { error: { type, ...(code ? { code } : {}), message: 'Stripe had a problem' } },
});

/** The n-th call to POST /v1/payment_intents (1-based) gets `fault`; the others Stripe's own answer. */
function faultOnCharge(faults: Record<number, (r: StripeRequest) => ReturnType<FakeStripe['execute']>>) {
  let n = 0;
  env.fake.respond = [(r) => (r.method === 'POST' && r.path === '/v1/payment_intents' ? faults[++n]?.(r) : undefined)];
}

async function creditsBuyer(email: string) {
  const product = await d.api.post('/products', {
    name: `Credits ${email}`,
    price: 10,
    productType: 'credits',
    creditAmount: 1000,
    creditAutoRefill: { enabled: true, topOffCents: 500 },
  });
  expect(product.status, product.text).toBe(201);
  await d.buy(product.body._id, email);
  return (amountCents: number) => d.api.post('/credits/deduct', { productId: product.body._id, email, amountCents });
}

beforeAll(async () => {
  env.fake = await new FakeStripe().start();
  env.fake.livemode = true;
  env.runtime = await startTestRuntime({ STRIPE_API_URL: env.fake.url, RATE_LIMIT_PER_MINUTE: '100000' });
  env.control = new ApiClient(env.runtime.url);
  env.fake.clock = () => Math.floor(env.runtime.clock.nowMs() / 1000);
  d = await stripeDriver(env);
});
afterAll(async () => {
  await env.runtime?.stop();
  await env.fake?.stop();
});

describe('Stripe faults, end to end on the fake', () => {
  it('a usage charge answered 500 after Stripe charged, then rate-limited: one key, one PaymentIntent, one usage sale', { timeout: 300_000 }, async () => {
    const created = await d.api.post('/subscriptions', { name: 'Fault meter', price: 10, frequency: 'monthly' });
    const pricing = await d.api.put(`/subscriptions/${created.body._id}/usage-pricing`, {
      seats: { enabled: false },
      meters: [{ key: 'calls', name: 'Calls', unitPriceCents: 3, includedUnits: 0 }],
    });
    expect(pricing.status, pricing.text).toBe(200);
    const id = await d.subscribe(created.body._id, 'fault-usage@example.com');
    expect((await d.api.post(`/subscriptions/${id}/usage`, { meter: 'calls', quantity: 41 })).status).toBe(201);
    env.fake.take();
    // Stripe charges, then answers 500 (the answer is lost); the SDK's retry is rate-limited (429);
    // the adapter's own retry after the back-off gets the stored answer of the first attempt.
    faultOnCharge({ 1: (r) => ({ ...env.fake.execute(r), ...apiError(500, 'api_error') }), 2: () => apiError(429, 'invalid_request_error', 'rate_limit') });
    const closed = async () =>
      (await d.api.get(`/subscriptions/${id}/usage`)).body.periods as { charge: { status: string; saleId: string; amountCents: number } }[];
    for (let day = 0; day < 35 && (await closed()).length === 0; day++) await advanceDays(1);
    env.fake.respond = [];
    const [period] = await closed();
    expect(period!.charge).toMatchObject({ status: 'paid', amountCents: 123 });
    const posts = intentPosts().filter((r) => r.form.amount === '123');
    expect(posts.length).toBe(3);
    expect(new Set(posts.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(env.fake.model.list('payment_intent', (p) => p.amount === 123 && p.status === 'succeeded')).toHaveLength(1);
    const sales = (await d.api.get(`/orders/subscriptions/${id}`)).body.sales.filter((s: { billingReason: string }) => s.billingReason === 'usage');
    expect(sales).toHaveLength(1);
    expect(await deadLetters()).toEqual([]);
  });

  it('a top-off whose answer is held past the SDK timeout is tried again with the same key and charged once', { timeout: 120_000 }, async () => {
    const deduct = await creditsBuyer('fault-timeout@example.com');
    env.fake.take();
    // Stripe charges, but its answer comes after the client's 10 s timeout: the retry replays it.
    faultOnCharge({ 1: (r) => ({ ...env.fake.execute(r), delayMs: 12_000 }) });
    const topOff = await deduct(1000);
    env.fake.respond = [];
    expect(topOff.status, topOff.text).toBe(200);
    expect(topOff.body).toMatchObject({ balanceCents: 500, autoRefill: { attempted: true, succeeded: true } });
    const posts = intentPosts();
    expect(posts).toHaveLength(2);
    expect(posts[0]!.idempotencyKey).toBe(posts[1]!.idempotencyKey);
    const customer = env.fake.model.list('customer', (c) => c.email === 'fault-timeout@example.com')[0]!;
    expect(env.fake.model.list('payment_intent', (p) => p.customer === customer.id && p.amount === 500)).toHaveLength(1);
  });

  it('an expired saved card on a top-off pauses the balance and mails the buyer; the answer is a 200', { timeout: 120_000 }, async () => {
    const email = 'fault-expired@example.com';
    const deduct = await creditsBuyer(email);
    const customer = env.fake.model.list('customer', (c) => c.email === email)[0]!;
    for (const pm of env.fake.model.list('payment_method', (p) => p.customer === customer.id)) pm._cardNumber = '4000000000000069';
    const failed = await deduct(1000);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({ balanceCents: 0, autoRefill: { attempted: true, succeeded: false }, account: { status: 'paused' } });
    await settle();
    expect((await mailsTo(email)).some((m) => /paused/.test(m.subject))).toBe(true);
    expect(await deadLetters()).toEqual([]);
  });

  it('a refused card and a missing payment method on usage and renewal: the charge is failed with its retry, the membership past due then paused on day 7, the buyer mailed', {
    timeout: 300_000,
  }, async () => {
    expect((await d.api.put('/subscription-retention/recovery/settings', { enabled: true, finalAction: 'pause', emailBuyer: true })).status).toBe(200);
    const created = await d.api.post('/subscriptions', { name: 'Fault renewals', price: 7, frequency: 'monthly' });
    const pricing = await d.api.put(`/subscriptions/${created.body._id}/usage-pricing`, {
      seats: { enabled: false },
      meters: [{ key: 'calls', name: 'Calls', unitPriceCents: 1, includedUnits: 0 }],
    });
    expect(pricing.status, pricing.text).toBe(200);
    const refused = await d.subscribe(created.body._id, 'fault-refused@example.com');
    const missing = await d.subscribe(created.body._id, 'fault-missing@example.com');
    for (const id of [refused, missing]) expect((await d.api.post(`/subscriptions/${id}/usage`, { meter: 'calls', quantity: 50 })).status).toBe(201);
    await d.card(refused, 'fault-refused@example.com', 'declines');
    // The buyer removed the card in Stripe: neither the subscription nor the customer has one.
    const customer = env.fake.model.list('customer', (c) => c.email === 'fault-missing@example.com')[0]!;
    for (const sub of env.fake.model.list('subscription', (s) => s.customer === customer.id)) sub.default_payment_method = null;
    customer.invoice_settings.default_payment_method = null;
    await untilPastDue(d, refused);
    await untilPastDue(d, missing);
    await advanceDays(1);
    for (const [id, email] of [
      [refused, 'fault-refused@example.com'],
      [missing, 'fault-missing@example.com'],
    ] as const) {
      expect((await subscriber(d, id)).status).toBe('past_due');
      const [period] = (await d.api.get(`/subscriptions/${id}/usage`)).body.periods as {
        charge: { status: string; retries: number; nextRetryAt: string | null };
      }[];
      expect(period!.charge.status).toBe('failed');
      expect(period!.charge.nextRetryAt).not.toBeNull();
      expect((await mailsTo(email)).length).toBeGreaterThan(0);
    }
    // The retries run on the policy's days without a card too, and the final action follows.
    await advanceDays(7);
    for (const id of [refused, missing]) expect(await subscriber(d, id)).toMatchObject({ status: 'paused', paused: true });
    expect(await deadLetters()).toEqual([]);
  });
});
