import { expect } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { setProcessorSettings } from '../../shared/processor/settings';
import { pay } from './commerce';
import type { FakeStripe } from './fake-stripe';
import { type ApiClient, createTestAccount, settleWithRetries, type TestAccount } from './runtime';

/**
 * The two processors of test/support/processor-scenarios.ts behind one driver: the sandbox (test
 * mode, its control routes acting as buyer and bank) and Stripe (live mode on the stateful fake
 * Stripe, whose checkout page, cards and clock act as buyer and bank; its events reach the Stripe
 * webhook route signed as Stripe signs them). `env` is filled by the test's beforeAll.
 */
export interface ScenarioEnv {
  runtime: LocalRuntime;
  fake: FakeStripe;
  control: ApiClient;
}

export const DAY = 86_400;
const WHSEC = 'whsec_scenarios';

export interface Driver {
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

export function scenarioTools(env: ScenarioEnv) {
  /** Delivers the fake Stripe's pending webhooks: whether any was delivered (the runtime then has work to settle). */
  async function deliverWebhooks() {
    if (!env.fake.webhook) return false;
    const delivered = await env.fake.flush();
    const failed = delivered.filter((d) => d.status >= 300);
    if (failed.length) throw new Error(`webhook refused: ${JSON.stringify(failed.map((d) => [d.event.type, d.status, d.body]))}`);
    return delivered.length > 0;
  }
  async function settle() {
    await deliverWebhooks();
    await settleWithRetries(env.runtime);
  }
  /**
   * Both processors' clocks move together, a day at a time (the service's timers and Stripe's
   * billing interleave). The runtime's advance returns settled, so it is settled again only when
   * Stripe's webhooks brought it new work: most simulated days deliver none.
   */
  async function advanceDays(days: number) {
    for (let i = 0; i < days; i++) {
      const res = await env.control.post('/_local/clock/advance', { seconds: DAY });
      if (res.status !== 200) throw new Error(`advance: ${res.text}`);
      if (await deliverWebhooks()) await settleWithRetries(env.runtime);
      env.fake.tick();
      if (await deliverWebhooks()) await settleWithRetries(env.runtime);
    }
  }
  const subscriber = async (d: Driver, id: string) => (await d.api.get(`/subscriptions/subscribers/${id}`)).body;
  /** Every charge of the subscriber (newest first) of one billing reason. */
  const charges = async (d: Driver, id: string, reason: string) =>
    ((await subscriber(d, id)).payments as { billingReason: string; amountCents: number }[])
      .filter((p) => p.billingReason === reason)
      .map((p) => p.amountCents);
  const renewals = (d: Driver, id: string) => charges(d, id, 'renewal');
  const outbox = async (d: Driver, type: string) => {
    await settle();
    return (await env.control.get(`/_local/events?accountId=${d.account.accountId}&mode=${d.mode}&type=${type}`)).body.events as {
      data: Record<string, any>;
    }[];
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
  /** Day by day until the subscriber is past due (its renewal failed). */
  async function untilPastDue(d: Driver, id: string) {
    for (let day = 0; day < 35 && (await subscriber(d, id)).status !== 'past_due'; day++) await advanceDays(1);
    expect((await subscriber(d, id)).status).toBe('past_due');
  }
  return { settle, advanceDays, subscriber, charges, renewals, outbox, offer, portal, untilPastDue };
}

export async function sandboxDriver(env: ScenarioEnv): Promise<Driver> {
  const { runtime, control } = env;
  const { settle } = scenarioTools(env);
  const account = await createTestAccount(runtime, 'volume');
  return {
    name: 'sandbox',
    mode: 'test',
    account,
    api: account.test,
    async subscribe(offerId, email) {
      const session = (
        await account.test.post('/checkout/sessions', {
          productId: offerId,
          successUrl: 'https://shop.example.com/ok',
          cancelUrl: 'https://shop.example.com/no',
        })
      ).body;
      return (await pay(runtime, session.id, { email })).subscriberId!;
    },
    async card(subscriberId, _email, outcome) {
      expect((await control.post(`/_local/subscribers/${subscriberId}/card`, { outcome })).status).toBe(200);
    },
    async buy(productId, email) {
      const session = (
        await account.test.post('/checkout/sessions', { productId, successUrl: 'https://shop.example.com/ok', cancelUrl: 'https://shop.example.com/no' })
      ).body;
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

export async function stripeDriver(env: ScenarioEnv): Promise<Driver> {
  const { runtime, fake } = env;
  const { settle } = scenarioTools(env);
  const account = await createTestAccount(runtime, 'volume');
  const deps = runtime.adapters.deps;
  const scope = { accountId: account.accountId, mode: 'live' as const };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, scope, {
    provider: 'stripe',
    secrets: { secretKey: 'rk_live_scenarios', webhookSecret: WHSEC },
  });
  (deps.ports.processor as unknown as { forget(): void }).forget();
  fake.webhook = { url: `${runtime.url}/processor/stripe/webhooks/${account.accountId}/live`, secret: WHSEC };
  const cardOf = (email: string) => {
    const customer = fake.model.list('customer', (c) => c.email === email)[0]!;
    return fake.model.list('subscription', (s) => s.customer === customer.id)[0]!.default_payment_method as string;
  };
  return {
    name: 'stripe',
    mode: 'live',
    account,
    api: account.live,
    async subscribe(offerId, email) {
      const session = await account.live.post('/checkout/sessions', {
        productId: offerId,
        successUrl: 'https://shop.example.com/ok',
        cancelUrl: 'https://shop.example.com/no',
      });
      expect(session.status, session.text).toBe(201);
      fake.completeCheckout(String(session.body.url).split('/').pop()!, { email, name: 'Sam Roe', country: 'US' });
      await settle();
      const list = (await account.live.get('/subscriptions/subscribers?limit=100')).body;
      const found = ((list.data ?? list.subscribers ?? list) as { _id: string; buyerEmail?: string; email?: string }[]).find(
        (s) => (s.buyerEmail ?? s.email) === email,
      );
      expect(found, JSON.stringify(list)).toBeDefined();
      return found!._id;
    },
    async card(_subscriberId, email, outcome) {
      fake.setCardDeclining(cardOf(email), outcome === 'declines');
    },
    async buy(productId, email) {
      const session = await account.live.post('/checkout/sessions', {
        productId,
        successUrl: 'https://shop.example.com/ok',
        cancelUrl: 'https://shop.example.com/no',
      });
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
