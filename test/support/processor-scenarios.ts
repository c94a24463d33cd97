import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessorError } from '../../shared/processor/port';
import { FakeStripe } from './fake-stripe';
import { DAY, sandboxDriver, scenarioTools, stripeDriver, type Driver, type ScenarioEnv } from './processor-drivers';
import { ApiClient, startTestRuntime } from './runtime';

/**
 * One table of growth-billing scenarios, run against both processors over HTTP (drivers in
 * test/support/processor-drivers.ts): the sandbox in test mode and Stripe in live mode on the
 * stateful fake Stripe. Each scenario asserts what the seller's API shows, so both processors must
 * end in the same states. Each processor's run is its own test file with its own runtime
 * (test/e2e/processor-scenarios-*.test.ts): the two run in parallel, and a day advanced for one
 * does not also renew the other's subscriptions.
 */
const env = {} as ScenarioEnv;
const { settle, advanceDays, subscriber, charges, renewals, outbox, offer, portal, untilPastDue } = scenarioTools(env);
const mailsTo = async (email: string) =>
  (await env.control.get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails as { subject: string; text: string }[];

/** An offer billed per seat and/or per unit: its id. */
async function usageOffer(d: Driver, name: string, pricing: Record<string, unknown>) {
  const created = await d.api.post('/subscriptions', { name, price: 10, frequency: 'monthly' });
  expect(created.status, created.text).toBe(201);
  const set = await d.api.put(`/subscriptions/${created.body._id}/usage-pricing`, pricing);
  expect(set.status, set.text).toBe(200);
  return created.body._id as string;
}

/** Day by day until the subscriber's first usage period has closed and its charge was tried: the period. */
async function closedPeriod(d: Driver, id: string) {
  const closed = async () =>
    (await d.api.get(`/subscriptions/${id}/usage`)).body.periods as {
      charge: { status: string; saleId: string; amountCents: number };
      seats: { extraSeatPeriods: number } | null;
    }[];
  for (let day = 0; day < 35 && (await closed()).length === 0; day++) await advanceDays(1);
  await advanceDays(1);
  return (await closed())[0]!;
}

const usageSale = async (d: Driver, id: string, saleId: string) =>
  (await d.api.get(`/orders/subscriptions/${id}`)).body.sales.find((x: { _id: string }) => x._id === saleId);

const SCENARIOS: Record<string, (d: Driver) => Promise<void>> = {
  "usage overage at the period end: a usage sale on the subscription's card": async (d) => {
    const offerId = await usageOffer(d, 'Team plan', {
      seats: { enabled: false },
      meters: [{ key: 'api_calls', name: 'API calls', unitPriceCents: 2, includedUnits: 100 }],
    });
    const id = await d.subscribe(offerId, `usage-${d.name}@example.com`);
    expect((await d.api.post(`/subscriptions/${id}/usage`, { meter: 'api_calls', quantity: 150 })).status).toBe(201);
    const period = await closedPeriod(d, id);
    expect(period.charge).toMatchObject({ status: 'paid', amountCents: 100 });
    expect(await usageSale(d, id, period.charge.saleId)).toMatchObject({ billingReason: 'usage', amountCents: 100 });
  },
  'a seat change: seats bought at checkout are in the price, extra seats are a usage sale at the period end': async (d) => {
    const offerId = await usageOffer(d, 'Seat plan', { seats: { enabled: true, unitPriceCents: 500, minimum: 1, maximum: 10 }, meters: [] });
    const id = await d.subscribe(offerId, `seats-${d.name}@example.com`);
    expect(await charges(d, id, 'initial')).toEqual([1500]);
    const changed = await d.api.post(`/subscriptions/${id}/seats`, { quantity: 3 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ purchased: 1, quantity: 3 });
    const period = await closedPeriod(d, id);
    // Two extra seats for (nearly) the whole period, at $5 each.
    expect(period.seats!.extraSeatPeriods).toBeGreaterThan(1.9);
    expect(period.charge.status).toBe('paid');
    expect(period.charge.amountCents).toBeGreaterThan(950);
    expect(period.charge.amountCents).toBeLessThanOrEqual(1000);
    expect(await usageSale(d, id, period.charge.saleId)).toMatchObject({ billingReason: 'usage', amountCents: period.charge.amountCents });
    // The renewal keeps the price of the seats bought at checkout.
    expect(await renewals(d, id)).toEqual([1500]);
  },
  'a save offer accepted: the next renewal is discounted': async (d) => {
    const offerId = await offer(d, 'Save club', 20, { saveOffers: { enabled: true, pauseMaxMonths: 2, discountPercent: 25, discountMonths: 2 } });
    const id = await d.subscribe(offerId, `save-${d.name}@example.com`);
    await advanceDays(1);
    const { path, token } = await portal(d, id);
    const accepted = await env.control.post(`${path}/cancel?token=${token}`, { saveOffer: { kind: 'discount' }, reason: 'too_expensive' });
    expect(accepted.status, accepted.text).toBe(200);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([1500]);
  },
  'an intro price counts from the first charge: 2 charges at $5, then $20': async (d) => {
    const offerId = await offer(d, 'Intro club', 20, { intro: { enabled: true, price: 5, periods: 2 } });
    const id = await d.subscribe(offerId, `intro-${d.name}@example.com`);
    expect(await charges(d, id, 'initial')).toEqual([500]);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([500]);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([2000, 500]);
    const report = await d.api.get('/subscription-retention/intro/report');
    expect(report.body, report.text).toMatchObject({ intro: { subscribersStarted: 1, paymentsAtIntroPrice: 2 } });
  },
  'the yearly switch: the next renewal is the yearly price': async (d) => {
    const offerId = await offer(d, 'Yearly club', 10, { yearlySwitch: { enabled: true, afterPayments: 1, percentOff: 20 } });
    const id = await d.subscribe(offerId, `yearly-${d.name}@example.com`);
    await settle();
    const { path, token } = await portal(d, id);
    const switched = await env.control.post(`${path}/yearly-switch?token=${token}`, {});
    expect(switched.status, switched.text).toBe(200);
    await advanceDays(31);
    expect(await renewals(d, id)).toEqual([9600]);
    const after = await subscriber(d, id);
    expect(Date.parse(after.currentPeriodEnd) - Date.parse(after.currentPeriodStart)).toBeGreaterThan(364 * DAY * 1000);
  },
  "recovery: a failed renewal is paid on day 3 of the service's schedule": async (d) => {
    const on = await d.api.put('/subscription-retention/recovery/settings', { enabled: true, finalAction: 'pause', emailBuyer: true });
    expect(on.status, on.text).toBe(200);
    const email = `recovers-${d.name}@example.com`;
    const id = await d.subscribe(await offer(d, 'Recovery club', 12.5), email);
    await d.card(id, email, 'declines');
    await untilPastDue(d, id);
    expect((await outbox(d, 'subscription.payment_failed')).filter((e) => e.data.subscriptionCustomerId === id).map((e) => e.data.recovery?.attempt)).toEqual([
      1,
    ]);
    await advanceDays(1);
    await d.card(id, email, 'pays');
    await advanceDays(2);
    expect((await subscriber(d, id)).status).toBe('active');
    expect((await outbox(d, 'subscription.recovered')).filter((e) => e.data.subscriptionCustomerId === id)).toHaveLength(1);
    expect(await renewals(d, id)).toEqual([1250]);
  },
  'recovery: the final action on day 7 pauses a renewal never paid, and the buyer is mailed': async (d) => {
    const on = await d.api.put('/subscription-retention/recovery/settings', { enabled: true, finalAction: 'pause', emailBuyer: true });
    expect(on.status, on.text).toBe(200);
    const email = `paused-${d.name}@example.com`;
    const id = await d.subscribe(await offer(d, 'Final club', 12.5), email);
    await d.card(id, email, 'declines');
    await untilPastDue(d, id);
    await advanceDays(7);
    expect(await subscriber(d, id)).toMatchObject({ status: 'paused', paused: true });
    expect((await outbox(d, 'subscription.payment_failed')).filter((e) => e.data.subscriptionCustomerId === id).map((e) => e.data.recovery?.attempt)).toEqual([
      1, 2, 3, 4,
    ]);
    expect((await mailsTo(email)).length).toBeGreaterThan(0);
    expect(await renewals(d, id)).toEqual([]);
  },
  'credits: a top-off is an off-session charge of the saved card; a declined one pauses the balance and mails the buyer': async (d) => {
    const product = await d.api.post('/products', {
      name: 'API credits',
      price: 10,
      productType: 'credits',
      creditAmount: 1000,
      creditAutoRefill: { enabled: true, topOffCents: 500 },
    });
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
    expect((await mailsTo(email)).some((m) => /paused/.test(m.subject))).toBe(true);
  },
  'credits consent withdrawn: the saved card is detached at the processor and never charged again': async (d) => {
    const product = await d.api.post('/products', {
      name: 'Render credits',
      price: 10,
      productType: 'credits',
      creditAmount: 1000,
      creditAutoRefill: { enabled: true, topOffCents: 500 },
    });
    expect(product.status, product.text).toBe(201);
    const email = `consent-${d.name}@example.com`;
    await d.buy(product.body._id, email);
    const [credit] = (await d.api.get(`/credits/accounts?email=${encodeURIComponent(email)}`)).body;
    const paymentMethodId = credit.autoRefill.paymentMethodId as string;
    expect(paymentMethodId).toMatch(/^payt_/);
    const off = await d.api.delete(`/credits/accounts/${credit._id}/consent`);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ autoRefill: { enabled: false, paymentMethodId: null } });
    await settle();
    // The processor forgot the card: a charge of it is refused, whoever asks.
    const probe = await env.runtime.deps.ports.processor
      .chargeSavedCard({ accountId: d.account.accountId, mode: d.mode }, { paymentMethodId, amountCents: 100, currency: 'USD', description: 'probe' })
      .catch((e: unknown) => e);
    expect(probe).toBeInstanceOf(ProcessorError);
    expect(probe).toMatchObject({ code: 'not_found' });
    if (d.name === 'stripe') expect(env.fake.model.list('payment_method', (p) => p.customer && env.fake.objects[p.customer]?.email === email)).toEqual([]);
    const drained = await d.api.post('/credits/deduct', { productId: product.body._id, email, amountCents: 1000 });
    expect(drained.body, drained.text).toMatchObject({ balanceCents: 0, autoRefill: { attempted: false, succeeded: false } });
  },
  'a refund of a payment: part, then the rest': async (d) => {
    const id = await d.subscribe(await offer(d, 'Refund club', 9), `refund-${d.name}@example.com`);
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
  'card update: the new card pays the open renewal at once': async (d) => {
    const email = `card-${d.name}@example.com`;
    const id = await d.subscribe(await offer(d, 'Card club', 8), email);
    await d.card(id, email, 'declines');
    await untilPastDue(d, id);
    const cardLink = (await subscriber(d, id)).portalUrl.replace('/portal-data/', '/portal-card/');
    const opened = await fetch(cardLink, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    await d.updateCard(opened.headers.get('location')!, email);
    expect((await subscriber(d, id)).status).toBe('active');
    expect(await renewals(d, id)).toEqual([800]);
  },
};

/** Registers the whole table against one processor, on a runtime (and fake Stripe) of its own. */
export function scenarioSuite(processor: 'sandbox' | 'stripe'): void {
  beforeAll(async () => {
    env.fake = await new FakeStripe().start();
    env.fake.livemode = true;
    env.runtime = await startTestRuntime({ STRIPE_API_URL: env.fake.url, RATE_LIMIT_PER_MINUTE: '100000' });
    env.control = new ApiClient(env.runtime.url);
    env.fake.clock = () => Math.floor(env.runtime.clock.nowMs() / 1000);
  });
  afterAll(async () => {
    await env.runtime?.stop();
    await env.fake?.stop();
  });

  describe(`growth billing on the ${processor} processor`, () => {
    let driver: Driver;
    beforeAll(async () => {
      driver = processor === 'sandbox' ? await sandboxDriver(env) : await stripeDriver(env);
    });
    for (const [name, scenario] of Object.entries(SCENARIOS)) it(name, () => scenario(driver), 300_000);
  });
}
