import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRef } from '../../shared/adapters/processor-stripe/refs';
import { specId } from '../../shared/adapters/processor-stripe/records';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps } from '../../shared/platform/context';
import { ApiError } from '../../shared/platform/errors';
import type { CreateCheckoutInput } from '../../shared/processor/port';
import { ProcessorRouter } from '../../shared/processor/router';
import { getProcessorSettings, setProcessorSettings } from '../../shared/processor/settings';
import type { Scope } from '../../shared/store/keys';
import { FakeStripe } from '../support/fake-stripe';
import { liveSubscription as makeSubscription } from '../support/stripe-live';
import { createTestDeps } from '../support/store';

const SECRET = 'rk_live_integration0000000000000000';
let fake: FakeStripe;
let deps: Deps;
let live: Scope;

const IDEMPOTENCY = /^cc-[A-Za-z0-9_.-]+$/;

const input = (over: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput => ({
  sessionId: 'sess1',
  kind: 'one_time',
  description: 'Ebook',
  amountCents: 700,
  currency: 'USD',
  successUrl: 'https://seller.example/thanks',
  cancelUrl: 'https://seller.example/cancel',
  notifyUrl: 'http://127.0.0.1/processor/notifications',
  baseUrl: 'http://127.0.0.1',
  productId: 'prodA',
  originalAmountCents: 700,
  clientReferenceId: 'ref-1',
  metadata: { campaign: 'spring' },
  ...over,
});

beforeAll(async () => {
  fake = await new FakeStripe().start();
  ({ deps } = await createTestDeps({ STRIPE_API_URL: fake.url }));
  const account = await createAccount(deps.store, deps.clock, { email: 'seller@example.com' });
  live = { accountId: account.accountId, mode: 'live' };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, live, {
    provider: 'stripe',
    secrets: { secretKey: SECRET, webhookSecret: 'whsec_integration' },
  });
});
afterAll(() => fake.stop());

const liveSubscription = (tag: string, options: Parameters<typeof makeSubscription>[4] = {}) => makeSubscription(deps, fake, live, tag, options);

/** A one-time payment made on Stripe's page, with its payment ref. */
async function livePayment(tag: string, amount: number) {
  const out = await deps.ports.processor.createCheckout(
    live,
    input({ sessionId: `s-${tag}`, productId: `product-${amount}`, amountCents: amount, originalAmountCents: amount }),
  );
  const session = fake.completeCheckout(out.checkoutId, { email: `${tag}@example.com` });
  const paymentId = specId('pay', live, session.payment_intent);
  await ensureRef(deps.store, live, {
    specId: paymentId,
    stripeId: session.payment_intent,
    kind: 'payment',
    amountCents: amount,
    currency: 'USD',
    membershipId: null,
    refundedCents: 0,
  });
  return { paymentId, intent: session.payment_intent as string };
}

describe('Stripe adapter against a fake Stripe API', () => {
  it('stores the secrets encrypted, bound to their scope', async () => {
    const settings = (await getProcessorSettings(deps.store, live))!;
    expect(settings.provider).toBe('stripe');
    expect(JSON.stringify(settings)).not.toContain(SECRET);
    expect(JSON.stringify(settings)).not.toContain('whsec_integration');
    await expect(
      deps.ports.encryption.decrypt(settings.secrets.secretKey!, { accountId: 'other', mode: 'live', purpose: 'processor:stripe:secretKey' }),
    ).rejects.toThrow();
  });

  it('creates the product, the price and a payment-mode Checkout Session with metadata, then reuses the price', async () => {
    fake.take();
    const out = await deps.ports.processor.createCheckout(live, input({ offerSaveCard: true }));
    const requests = fake.take();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/products', 'POST /v1/prices', 'POST /v1/checkout/sessions']);
    for (const r of requests) {
      expect(r.idempotencyKey).toMatch(IDEMPOTENCY);
      expect(r.authorization).toBe(`Bearer ${SECRET}`);
    }
    const [product, price, session] = requests;
    expect(product!.form).toEqual({
      name: 'Ebook',
      'metadata[cc_account_id]': live.accountId,
      'metadata[cc_mode]': 'live',
      'metadata[cc_product_id]': 'prodA',
    });
    expect(product!.idempotencyKey).toBe('cc-product-live-prodA');
    expect(price!.form).toMatchObject({ unit_amount: '700', currency: 'usd', 'metadata[cc_product_id]': 'prodA' });
    expect(price!.form).not.toHaveProperty('recurring[interval]');
    expect(session!.idempotencyKey).toBe('cc-checkout-sess1');
    expect(session!.form).toEqual({
      mode: 'payment',
      'line_items[0][price]': expect.stringMatching(/^price_/),
      'line_items[0][quantity]': '1',
      success_url: 'https://seller.example/thanks',
      cancel_url: 'https://seller.example/cancel',
      client_reference_id: 'ref-1',
      'metadata[campaign]': 'spring',
      'metadata[cc_account_id]': live.accountId,
      'metadata[cc_mode]': 'live',
      'metadata[cc_session_id]': 'sess1',
      'metadata[cc_plan_id]': out.planId,
      'metadata[cc_currency]': 'USD',
      'metadata[cc_save_card]': '1',
      customer_creation: 'always',
      'payment_intent_data[metadata][cc_account_id]': live.accountId,
      'payment_intent_data[metadata][cc_mode]': 'live',
      'payment_intent_data[metadata][cc_session_id]': 'sess1',
      'payment_intent_data[setup_future_usage]': 'off_session',
    });
    expect(out).toEqual({
      checkoutId: expect.stringMatching(/^cs_test_/),
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
      planId: expect.stringMatching(/^plan_[0-9a-f]{24}$/),
    });

    const again = await deps.ports.processor.createCheckout(live, input({ sessionId: 'sess2' }));
    expect(fake.take().map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v1/checkout/sessions']);
    expect(again.planId).toBe(out.planId);
  });

  it('keeps the price in step: a new amount creates a new price and archives the old; a discount is a one-use coupon', async () => {
    const before = await deps.ports.processor.createCheckout(live, input({ sessionId: 'sess3' }));
    fake.take();
    const changed = await deps.ports.processor.createCheckout(
      live,
      input({ sessionId: 'sess4', originalAmountCents: 900, amountCents: 600, discountCode: 'SPRING' }),
    );
    const requests = fake.take();
    expect(requests.map((r) => `${r.method} ${r.path.replace(/price_\d+/, 'price_X')}`)).toEqual([
      'POST /v1/prices',
      'POST /v1/prices/price_X',
      'POST /v1/coupons',
      'POST /v1/checkout/sessions',
    ]);
    for (const r of requests) expect(r.idempotencyKey).toMatch(IDEMPOTENCY);
    expect(requests[0]!.form).toMatchObject({ unit_amount: '900', currency: 'usd' });
    expect(requests[1]!.form).toEqual({ active: 'false' });
    expect(requests[2]!.form).toEqual({
      amount_off: '300',
      currency: 'usd',
      duration: 'once',
      max_redemptions: '1',
      name: 'SPRING',
      'metadata[cc_account_id]': live.accountId,
      'metadata[cc_mode]': 'live',
      'metadata[cc_session_id]': 'sess4',
    });
    expect(requests[3]!.form['discounts[0][coupon]']).toMatch(/^co_/);
    expect(changed.planId).not.toBe(before.planId);
  });

  it('subscriptions: recurring price per frequency, trial days and subscription metadata', async () => {
    fake.take();
    await deps.ports.processor.createCheckout(
      live,
      input({ sessionId: 'sess5', kind: 'subscription', productId: 'offerB', interval: 'yearly', trialDays: 14, amountCents: 5000, originalAmountCents: 5000 }),
    );
    const [, price, session] = fake.take();
    expect(price!.form).toMatchObject({ unit_amount: '5000', 'recurring[interval]': 'year', 'recurring[interval_count]': '1' });
    expect(session!.form).toMatchObject({
      mode: 'subscription',
      'subscription_data[trial_period_days]': '14',
      'subscription_data[metadata][cc_session_id]': 'sess5',
    });
    expect(session!.form).not.toHaveProperty('customer_creation');
    expect(session!.form).not.toHaveProperty('payment_intent_data[setup_future_usage]');
  });

  it('lifecycle calls: pause, resume, cancel at period end, cancel now, refund, off-session charge and live reads', async () => {
    const { membershipId, card, sub } = await liveSubscription('life');
    const { paymentId } = await livePayment('life-pay', 700);
    fake.take();
    const paused = await deps.ports.processor.pauseMembership(live, membershipId);
    expect(paused).toMatchObject({
      id: membershipId,
      paused: true,
      status: 'active',
      amountCents: 900,
      currency: 'USD',
      interval: 'monthly',
      paymentMethod: card,
    });
    await deps.ports.processor.resumeMembership(live, membershipId);
    const ending = await deps.ports.processor.cancelMembership(live, membershipId, { atPeriodEnd: true });
    expect(ending.cancelAtPeriodEnd).toBe(true);
    await deps.ports.processor.refund(live, paymentId, 250);
    const charged = await deps.ports.processor.chargeSavedCard(live, {
      paymentMethodId: card.id,
      amountCents: 1500,
      currency: 'USD',
      description: 'Credits top-off',
    });
    expect(charged).toEqual({ paymentId: expect.stringMatching(/^pay_[0-9a-f]{24}$/), paymentMethod: card });
    expect(await deps.ports.processor.getPayment(live, paymentId)).toMatchObject({
      id: paymentId,
      status: 'partially_refunded',
      amountCents: 700,
      refundedCents: 250,
      currency: 'USD',
    });
    expect((await deps.ports.processor.getMembership(live, membershipId)).id).toBe(membershipId);
    const ended = await deps.ports.processor.cancelMembership(live, membershipId, { atPeriodEnd: false });
    expect(ended.status).toBe('canceled');
    const requests = fake.take();
    const intent = fake.objects[fake.model.list('payment_intent').at(-2)!.id]!;
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/subscriptions/${sub}`,
      `POST /v1/subscriptions/${sub}`,
      `POST /v1/subscriptions/${sub}`,
      'POST /v1/refunds',
      'POST /v1/payment_intents',
      `GET /v1/payment_intents/${intent.id}`,
      `GET /v1/subscriptions/${sub}`,
      `DELETE /v1/subscriptions/${sub}`,
    ]);
    for (const r of requests.filter((r) => r.method !== 'GET')) expect(r.idempotencyKey).toMatch(IDEMPOTENCY);
    expect(requests[0]!.form).toEqual({ 'pause_collection[behavior]': 'void', 'expand[0]': 'default_payment_method' });
    expect(requests[1]!.form).toEqual({ pause_collection: '', cancel_at_period_end: 'false', 'expand[0]': 'default_payment_method' });
    expect(requests[2]!.form).toEqual({ cancel_at_period_end: 'true', 'expand[0]': 'default_payment_method' });
    expect(requests[3]!.form).toEqual({ payment_intent: intent.id, amount: '250' });
    expect(requests[4]!.form).toEqual({
      amount: '1500',
      currency: 'usd',
      customer: fake.objects[sub]!.customer,
      payment_method: fake.objects[sub]!.default_payment_method,
      off_session: 'true',
      confirm: 'true',
      description: 'Credits top-off',
      'metadata[cc_account_id]': live.accountId,
      'metadata[cc_mode]': 'live',
    });
    expect(requests[5]!.query).toEqual({ 'expand[0]': 'latest_charge', 'expand[1]': 'payment_method' });
  });

  it("card update: a Billing Portal session in the payment-method-update flow for the subscription's customer", async () => {
    const { membershipId, sub } = await liveSubscription('card');
    fake.take();
    const back = 'https://api.example.com/subscriptions/sub/portal-data/o1/s1';
    const session = await deps.ports.processor.cardUpdateSession!(live, membershipId, { returnUrl: back, baseUrl: 'https://api.example.com' });
    expect(session.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_/);
    const requests = fake.take();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${sub}`, 'POST /v1/billing_portal/sessions']);
    expect(requests[1]!.idempotencyKey).toMatch(IDEMPOTENCY);
    expect(requests[1]!.form).toEqual({
      customer: fake.objects[sub]!.customer,
      return_url: back,
      'flow_data[type]': 'payment_method_update',
      'flow_data[after_completion][type]': 'redirect',
      'flow_data[after_completion][redirect][return_url]': back,
    });
    // Another account's membership id is not found in this scope.
    await expect(
      deps.ports.processor.cardUpdateSession!({ ...live, accountId: 'acct_other' }, membershipId, { returnUrl: back, baseUrl: '' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a declined off-session charge and a missing object surface as ProcessorError', async () => {
    const card = { id: specId('payt', live, 'pm_bad'), type: 'card' as const, brand: 'visa', last4: '0002', expMonth: 1, expYear: 2030 };
    await ensureRef(deps.store, live, { specId: card.id, stripeId: 'pm_bad', kind: 'card', customerId: 'cus_bad', paymentMethod: card });
    fake.respond.push((r) =>
      r.path === '/v1/payment_intents' && r.form.payment_method === 'pm_bad'
        ? { status: 402, body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } } }
        : undefined,
    );
    await expect(
      deps.ports.processor.chargeSavedCard(live, { paymentMethodId: card.id, amountCents: 100, currency: 'USD', description: 'x' }),
    ).rejects.toMatchObject({ name: 'ProcessorError', code: 'declined' });
    const gone = specId('mem', live, 'sub_gone');
    await ensureRef(deps.store, live, { specId: gone, stripeId: 'sub_gone', kind: 'membership' });
    await expect(deps.ports.processor.getMembership(live, gone)).rejects.toMatchObject({ name: 'ProcessorError', code: 'not_found' });
  });

  it('routes per account and mode: test mode stays on the sandbox; an unconfigured live scope is 409 in a deployed stack and the sandbox locally', async () => {
    const other = await createAccount(deps.store, deps.clock, { email: 'other@example.com' });
    const otherLive: Scope = { accountId: other.accountId, mode: 'live' };
    const deployed = new ProcessorRouter(deps, { unconfiguredLive: 'refuse', sandboxLive: false });
    const error = await deployed.createCheckout(otherLive, input()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'PROCESSOR_NOT_CONFIGURED' });
    expect(await deployed.providerOf(otherLive)).toBe('none');
    expect(await deployed.providerOf({ ...live, mode: 'test' })).toBe('sandbox');
    expect(await deployed.providerOf(live)).toBe('stripe');
    fake.take();
    const local = new ProcessorRouter(deps, { unconfiguredLive: 'sandbox', sandboxLive: true });
    const sandboxCheckout = await local.createCheckout(otherLive, input({ sessionId: 'sbx1' }));
    expect(sandboxCheckout.url).toContain('/processor/sandbox/checkout/');
    expect(fake.take()).toEqual([]);
  });
});
