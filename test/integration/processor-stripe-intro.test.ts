import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../shared/adapters/processor-stripe/client';
import { specId } from '../../shared/adapters/processor-stripe/records';
import { getRef } from '../../shared/adapters/processor-stripe/refs';
import { translateEvent } from '../../shared/adapters/processor-stripe/translate';
import { createAccount } from '../../shared/platform/accounts';
import type { Deps } from '../../shared/platform/context';
import type { CheckoutCompletedData } from '../../shared/processor/port';
import { setProcessorSettings } from '../../shared/processor/settings';
import type { Scope } from '../../shared/store/keys';
import { FakeStripe } from '../support/fake-stripe';
import { createTestDeps } from '../support/store';

/**
 * The intro price on Stripe, counted from the first charge (issue 39): the checkout's coupon makes
 * the first invoice the intro price; monthly the coupon repeats for the months N payments span,
 * weekly the webhook counts the payments and removes it after the N-th.
 */
const DAY = 86_400;
let fake: FakeStripe;
let deps: Deps;
let live: Scope;
let now = Math.floor(Date.parse('2027-03-01T12:00:00Z') / 1000);
let client: Stripe;

function advance(days: number) {
  now += days * DAY;
  fake.tick();
}
const translate = (event: Record<string, any>) => translateEvent({ deps, scope: live, client, event: event as Stripe.Event });
const lastEvent = (type: string) => fake.events.filter((e) => e.type === type).at(-1)!;
const invoices = (sub: string) =>
  fake.model.list('invoice', (i) => i.parent?.subscription_details?.subscription === sub).map((i) => [i.billing_reason, i.status, i.amount_due]);

async function introCheckout(tag: string, interval: 'monthly' | 'weekly', payments: number) {
  const out = await deps.ports.processor.createCheckout(live, {
    sessionId: `intro-${tag}`,
    kind: 'subscription',
    description: 'Intro club',
    amountCents: 2000,
    originalAmountCents: 2000,
    currency: 'USD',
    interval,
    successUrl: 'https://seller.example/thanks',
    cancelUrl: 'https://seller.example/cancel',
    notifyUrl: 'http://127.0.0.1/processor/notifications',
    baseUrl: 'http://127.0.0.1',
    productId: `offer-intro-${interval}`,
    intro: { amountCents: 500, payments },
  });
  const session = fake.completeCheckout(out.checkoutId, { email: `${tag}@example.com`, name: 'Ida Roe' });
  const notification = await translate(lastEvent('checkout.session.completed'));
  return { session, sub: session.subscription as string, data: notification!.data as unknown as CheckoutCompletedData };
}

beforeAll(async () => {
  fake = await new FakeStripe().start();
  fake.clock = () => now;
  ({ deps } = await createTestDeps({ STRIPE_API_URL: fake.url }));
  const account = await createAccount(deps.store, deps.clock, { email: 'intro@example.com' });
  live = { accountId: account.accountId, mode: 'live' };
  await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, live, {
    provider: 'stripe',
    secrets: { secretKey: 'rk_live_intro', webhookSecret: 'whsec_intro' },
  });
  client = stripeClient('rk_live_intro', { STRIPE_API_URL: fake.url });
});
afterAll(() => fake.stop());

describe('intro price on Stripe', () => {
  it('monthly: a repeating coupon from the first invoice: 3 charges at $5, then $20', async () => {
    fake.take();
    const { sub, data } = await introCheckout('monthly', 'monthly', 3);
    const coupon = fake.take().find((r) => r.path === '/v1/coupons')!;
    expect(coupon.form).toMatchObject({ amount_off: '1500', currency: 'usd', duration: 'repeating', duration_in_months: '3', max_redemptions: '1' });
    expect(data.payment).toMatchObject({ amountCents: 500 });
    for (let i = 0; i < 3; i++) advance(31);
    expect(invoices(sub)).toEqual([
      ['subscription_create', 'paid', 500],
      ['subscription_cycle', 'paid', 500],
      ['subscription_cycle', 'paid', 500],
      ['subscription_cycle', 'paid', 2000],
    ]);
  });

  it('weekly: a forever coupon the webhook counts: 2 charges at $5, then $20', async () => {
    fake.take();
    const { sub } = await introCheckout('weekly', 'weekly', 2);
    const posts = fake.take();
    expect(posts.find((r) => r.path === '/v1/coupons')!.form).toMatchObject({ amount_off: '1500', duration: 'forever' });
    expect(posts.find((r) => r.path === '/v1/checkout/sessions')!.form['metadata[cc_intro_payments]']).toBe('2');
    expect((await getRef(deps.store, live, specId('mem', live, sub)))!.discountPaymentsLeft).toBe(1);
    advance(7);
    expect(await translate(lastEvent('invoice.paid'))).toMatchObject({ type: 'charge.succeeded', data: { payment: { amountCents: 500 } } });
    expect(fake.objects[sub]!._discounts).toEqual([]);
    advance(7);
    expect(invoices(sub).map((i) => i[2])).toEqual([500, 500, 2000]);
  });

  it('weekly with one intro payment: the coupon ends with the checkout', async () => {
    const { sub, data } = await introCheckout('weekly-once', 'weekly', 1);
    expect(data.payment).toMatchObject({ amountCents: 500 });
    expect(fake.objects[sub]!._discounts).toEqual([]);
    advance(7);
    expect(invoices(sub).map((i) => i[2])).toEqual([500, 2000]);
  });
});
