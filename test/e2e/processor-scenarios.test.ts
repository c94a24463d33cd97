import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { setProcessorSettings } from '../../shared/processor/settings';
import { pay } from '../support/commerce';
import { FakeStripe } from '../support/fake-stripe';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';

/**
 * One table of growth-billing scenarios, run against both processors over HTTP: the sandbox (test
 * mode, its control routes acting as buyer and bank) and Stripe (live mode on the stateful fake
 * Stripe, whose checkout page, card and clock act as buyer and bank; its events reach the Stripe
 * webhook route signed as Stripe signs them). Each scenario asserts what the seller's API shows,
 * so both processors must end in the same states.
 */
const DAY = 86_400;
const WHSEC = 'whsec_scenarios';
let runtime: LocalRuntime;
let fake: FakeStripe;
let control: ApiClient;

interface Driver {
  name: 'sandbox' | 'stripe';
  mode: 'test' | 'live';
  account: TestAccount;
  api: ApiClient;
  /** The buyer pays a checkout of the offer: the subscriber's id. */
  subscribe(offerId: string, email: string): Promise<string>;
  /** From now on the buyer's card declines (or pays again). */
  card(subscriberId: string, email: string, outcome: 'declines' | 'pays'): Promise<void>;
  /** The buyer pays a one-time checkout (credits), keeping the card for auto-refill. */
  buy(productId: string, email: string): Promise<void>;
  /** From now on the saved card of this buyer's one-time purchase declines. */
  savedCardDeclines(email: string): Promise<void>;
  /** The buyer follows the portal's card link (a redirect to the processor's page) and saves a good card there. */
  updateCard(cardPage: string, email: string): Promise<void>;
}

async function settle() {
  if (fake.webhook) {
    const failed = (await fake.flush()).filter((d) => d.status >= 300);
    if (failed.length) throw new Error(`webhook refused: ${JSON.stringify(failed.map((d) => [d.event.type, d.status, d.body]))}`);
  }
  await settleWithRetries(runtime);
}

/** Both processors' clocks move together, a day at a time (the service's timers and Stripe's billing interleave). */
async function advanceDays(days: number) {
  for (let i = 0; i < days; i++) {
    const res = await control.post('/_local/clock/advance', { seconds: DAY });
    if (res.status !== 200) throw new Error(`advance: ${res.text}`);
    await settle();
    fake.tick();
    await settle();
  }
}

const subscriber = async (d: Driver, id: string) => (await d.api.get(`/subscriptions/subscribers/${id}`)).body;
const renewals = async (d: Driver, id: string) => ((await subscriber(d, id)).payments as { billingReason: string; amountCents: number }[]).filter((p) => p.billingReason === 'renewal').map((p) => p.amountCents);
const outbox = async (d: Driver, type: string) => {
  await settle();
  return (await control.get(`/_local/events?accountId=${d.account.accountId}&mode=${d.mode}&type=${type}`)).body.events as { data: Record<string, any> }[];
};
async function offer(d: Driver, name: string, price: number, retention?: Record<string, unknown>) {
  const created = await d.api.post('/subscriptions', { name, price, frequency: 'monthly' });
  expect(created.status, created.text).toBe(201);
  if (retention) {
    const set = await d.api.put(`/subscription-retention/offers/${created.body._id}`, retention);
    expect(set.status, set.text).toBe(200);
  }
  return created.body._id as string;
}
const portal = async (d: Driver, id: string) => {
  const url = new URL((await subscriber(d, id)).portalUrl);
  return { path: url.pathname.replace('/portal-data/', '/portal/').replace(/\/[^/]+\/([^/]+)$/, '/$1'), token: url.searchParams.get('token')! };
};

async function sandboxDriver(): Promise<Driver> {
  const account = await createTestAccount(runtime, 'volume');
  return {
    name: 'sandbox', mode: 'test', account, api: account.test,
    async subscribe(offerId, email) {
      const session = (await account.test.post('/checkout/sessions', { productId: offerId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' })).body;
      return (await pay(runtime, session.id, { email })).subscriberId!;
    },
    async card(subscriberId, _email, outcome) {
      expect((await control.post(`/_local/subscribers/${subscriberId}/card`, { outcome })).status).toBe(200);
    },
    async buy(productId, email) {
      const session = (await account.test.post('/checkout/sessions', { productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' })).body;
      expect((await pay(runtime, session.id, { email, saveCard: true })).status).toBe('paid');
    },
    async savedCardDeclines() {
      expect((await control.post('/_local/processor/refuse-next', { operation: 'charge' })).status).toBe(200);
    },
    async updateCard(cardPage) {
      expect(cardPage).toMatch(/\/processor\/sandbox\/card-update\/cu_/);
      const form = new FormData();
      for (const [k, v] of Object.entries({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' })) form.set(k, v);
      expect((await fetch(new URL(cardPage, runtime.url), { method: 'POST', body: form })).status).toBe(200);
      await settle();
    },
  };
}

async function stripeDriver(): Promise<Driver> {
  const account = await createTestAccount(runtime, 'volume');
  const deps = runtime.adapters.deps;
  const scope = { accountId: account.accountId, mode: 'live' as const };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, scope, { provider: 'stripe', secrets: { secretKey: 'rk_live_scenarios', webhookSecret: WHSEC } });
  (deps.ports.processor as unknown as { forget(): void }).forget();
  fake.webhook = { url: `${runtime.url}/processor/stripe/webhooks/${account.accountId}/live`, secret: WHSEC };
  const cardOf = (email: string) => {
    const customer = fake.model.list('customer', (c) => c.email === email)[0]!;
    return fake.model.list('subscription', (s) => s.customer === customer.id)[0]!.default_payment_method as string;
  };
  return {
    name: 'stripe', mode: 'live', account, api: account.live,
    async subscribe(offerId, email) {
      const session = await account.live.post('/checkout/sessions', { productId: offerId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' });
      expect(session.status, session.text).toBe(201);
      fake.completeCheckout(String(session.body.url).split('/').pop()!, { email, name: 'Sam Roe', country: 'US' });
      await settle();
      const list = (await account.live.get('/subscriptions/subscribers?limit=100')).body;
      const found = ((list.data ?? list.subscribers ?? list) as { _id: string; buyerEmail?: string; email?: string }[]).find((s) => (s.buyerEmail ?? s.email) === email);
      expect(found, JSON.stringify(list)).toBeDefined();
      return found!._id;
    },
    async card(_subscriberId, email, outcome) {
      fake.setCardDeclining(cardOf(email), outcome === 'declines');
    },
    async buy(productId, email) {
      const session = await account.live.post('/checkout/sessions', { productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' });
      expect(session.status, session.text).toBe(201);
      fake.completeCheckout(String(session.body.url).split('/').pop()!, { email, name: 'Dev Roe', country: 'US' });
      await settle();
    },
    async updateCard(cardPage, email) {
      expect(cardPage).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_/);
      fake.updateCard(fake.model.list('customer', (c) => c.email === email)[0]!.id);
      await settle();
    },
    async savedCardDeclines(email) {
      const customer = fake.model.list('customer', (c) => c.email === email).at(-1)!;
      for (const pm of fake.model.list('payment_method', (p) => p.customer === customer.id)) fake.setCardDeclining(pm.id, true);
    },
  };
}

/** The scenarios: each runs on a driver and asserts the seller's view. */
const SCENARIOS: Record<string, (d: Driver) => Promise<void>> = {
  'usage overage at the period end: a usage sale on the subscription\'s card': async (d) => {
    const created = await d.api.post('/subscriptions', { name: 'Team plan', price: 10, frequency: 'monthly' });
    const offerId = created.body._id as string;
    const pricing = await d.api.put(`/subscriptions/${offerId}/usage-pricing`, { seats: { enabled: false }, meters: [{ key: 'api_calls', name: 'API calls', unitPriceCents: 2, includedUnits: 100 }] });
    expect(pricing.status, pricing.text).toBe(200);
    const id = await d.subscribe(offerId, `usage-${d.name}@example.com`);
    expect((await d.api.post(`/subscriptions/${id}/usage`, { meter: 'api_calls', quantity: 150 })).status).toBe(201);
    const closed = async () => (await d.api.get(`/subscriptions/${id}/usage`)).body.periods as { charge: { status: string; saleId: string; amountCents: number } }[];
    for (let day = 0; day < 35 && (await closed()).length === 0; day++) await advanceDays(1);
    await advanceDays(1);
    const [period] = await closed();
    expect(period!.charge).toMatchObject({ status: 'paid', amountCents: 100 });
    const sale = (await d.api.get(`/orders/subscriptions/${id}`)).body.sales.find((x: { _id: string }) => x._id === period!.charge.saleId);
    expect(sale).toMatchObject({ billingReason: 'usage', amountCents: 100 });
  },
  'credits: a top-off is an off-session charge of the saved card; a declined one pauses the balance and mails the buyer': async (d) => {
    const product = await d.api.post('/products', { name: 'API credits', price: 10, productType: 'credits', creditAmount: 1000, creditAutoRefill: { enabled: true, topOffCents: 500 } });
    expect(product.status, product.text).toBe(201);
    const email = `credits-${d.name}@example.com`;
    await d.buy(product.body._id, email);
    const deduct = (amountCents: number) => d.api.post('/credits/deduct', { productId: product.body._id, email, amountCents });
    const toZero = await deduct(1000);
    expect(toZero.body, toZero.text).toMatchObject({ balanceCents: 500, autoRefill: { attempted: true, succeeded: true } });
    await d.savedCardDeclines(email);
    const failed = await deduct(500);
    expect(failed.body, failed.text).toMatchObject({ balanceCents: 0, autoRefill: { attempted: true, succeeded: false }, account: { status: 'paused' } });
    await settle();
    const mail = await control.get(`/_local/emails?to=${encodeURIComponent(email)}`);
    expect(mail.body.emails.some((m: { subject: string }) => /paused/.test(m.subject))).toBe(true);
  },
  'a refund of a payment: part, then the rest': async (d) => {
    const offerId = await offer(d, 'Refund club', 9);
    const id = await d.subscribe(offerId, `refund-${d.name}@example.com`);
    const [first] = (await subscriber(d, id)).payments as Record<string, string>[];
    const saleId = first!.saleId ?? first!._id ?? first!.id;
    const part = await d.api.post(`/payments/${saleId}/refund`, { amountCents: 300 });
    expect(part.status, `${part.text} ${JSON.stringify(first)}`).toBe(202);
    await settle();
    const rest = await d.api.post(`/payments/${saleId}/refund`, {});
    expect(rest.status, rest.text).toBe(202);
    await settle();
    const refunds = (await outbox(d, 'order.refunded')).filter((e) => JSON.stringify(e.data).includes(saleId));
    expect(refunds).toHaveLength(2);
    expect(await renewals(d, id)).toEqual([]);
  },
  'a save offer accepted: the next renewal is discounted': async (d) => {
    const offerId = await offer(d, 'Save club', 20, { saveOffers: { enabled: true, pauseMaxMonths: 2, discountPercent: 25, discountMonths: 2 } });
    const id = await d.subscribe(offerId, `save-${d.name}@example.com`);
    await advanceDays(1);
    const { path, token } = await portal(d, id);
    const accepted = await control.post(`${path}/cancel?token=${token}`, { saveOffer: { kind: 'discount' }, reason: 'too_expensive' });
    expect(accepted.status, accepted.text).toBe(200);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([1500]);
  },
  'the yearly switch: the next renewal is the yearly price': async (d) => {
    const offerId = await offer(d, 'Yearly club', 10, { yearlySwitch: { enabled: true, afterPayments: 1, percentOff: 20 } });
    const id = await d.subscribe(offerId, `yearly-${d.name}@example.com`);
    await settle();
    const { path, token } = await portal(d, id);
    const switched = await control.post(`${path}/yearly-switch?token=${token}`, {});
    expect(switched.status, switched.text).toBe(200);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([9600]);
    const after = await subscriber(d, id);
    expect(Date.parse(after.currentPeriodEnd) - Date.parse(after.currentPeriodStart)).toBeGreaterThan(364 * DAY * 1000);
  },
  'recovery: the failed renewal is paid on day 3 of the service\'s schedule, then the final action on day 7 for another': async (d) => {
    const on = await d.api.put('/subscription-retention/recovery/settings', { enabled: true, finalAction: 'pause', emailBuyer: true });
    expect(on.status, on.text).toBe(200);
    const offerId = await offer(d, 'Recovery club', 12.5);
    const saved = await d.subscribe(offerId, `recovers-${d.name}@example.com`);
    const lost = await d.subscribe(offerId, `paused-${d.name}@example.com`);
    await d.card(saved, `recovers-${d.name}@example.com`, 'declines');
    await d.card(lost, `paused-${d.name}@example.com`, 'declines');
    // Day by day to the renewal, which fails on both cards.
    for (let day = 0; day < 35 && (await subscriber(d, saved)).status !== 'past_due'; day++) await advanceDays(1);
    expect((await subscriber(d, saved)).status).toBe('past_due');
    const failed = (await outbox(d, 'subscription.payment_failed')).filter((e) => e.data.subscriptionCustomerId === saved);
    expect(failed.map((e) => e.data.recovery?.attempt)).toEqual([1]);
    await advanceDays(1);
    await d.card(saved, `recovers-${d.name}@example.com`, 'pays');
    await advanceDays(2);
    expect((await subscriber(d, saved)).status).toBe('active');
    expect((await outbox(d, 'subscription.recovered')).filter((e) => e.data.subscriptionCustomerId === saved)).toHaveLength(1);
    expect(await renewals(d, saved)).toEqual([1250]);
    await advanceDays(4);
    const paused = await subscriber(d, lost);
    expect(paused).toMatchObject({ status: 'paused', paused: true });
    expect((await outbox(d, 'subscription.payment_failed')).filter((e) => e.data.subscriptionCustomerId === lost).map((e) => e.data.recovery?.attempt)).toEqual([1, 2, 3, 4]);
  },
  'card update: the new card pays the open renewal at once': async (d) => {
    const offerId = await offer(d, 'Card club', 8);
    const email = `card-${d.name}@example.com`;
    const id = await d.subscribe(offerId, email);
    await d.card(id, email, 'declines');
    for (let day = 0; day < 35 && (await subscriber(d, id)).status !== 'past_due'; day++) await advanceDays(1);
    expect((await subscriber(d, id)).status).toBe('past_due');
    const cardLink = (await subscriber(d, id)).portalUrl.replace('/portal-data/', '/portal-card/');
    const opened = await fetch(cardLink, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    await d.updateCard(opened.headers.get('location')!, email);
    expect((await subscriber(d, id)).status).toBe('active');
    expect(await renewals(d, id)).toEqual([800]);
  },
};

beforeAll(async () => {
  fake = await new FakeStripe().start();
  fake.livemode = true;
  runtime = await startTestRuntime({ STRIPE_API_URL: fake.url, RATE_LIMIT_PER_MINUTE: '100000' });
  control = new ApiClient(runtime.url);
  fake.clock = () => Math.floor(runtime.clock.nowMs() / 1000);
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.stop();
});

describe.each(['sandbox', 'stripe'] as const)('growth billing on the %s processor', (processor) => {
  let driver: Driver;
  beforeAll(async () => {
    driver = processor === 'sandbox' ? await sandboxDriver() : await stripeDriver();
  });
  for (const [name, scenario] of Object.entries(SCENARIOS)) it(name, () => scenario(driver), 240_000);
});
