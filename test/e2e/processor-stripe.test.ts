import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { setProcessorSettings } from '../../shared/processor/settings';
import { FakeStripe } from '../support/fake-stripe';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';

const WHSEC = 'whsec_e2e_secret';
const DAY = 24 * 3600;
let fake: FakeStripe;
let runtime: LocalRuntime;
let account: TestAccount;
let control: ApiClient;

async function outbox(mode: 'live' | 'test') {
  await settleWithRetries(runtime);
  return (await control.get(`/_local/events?accountId=${account.accountId}&mode=${mode}`)).body.events as { id: string; type: string; data: any }[];
}

const nowSeconds = () => Math.floor(runtime.clock.nowMs() / 1000);

/** A Stripe event as Stripe documents it (snapshot event, API version of the pinned library). */
function stripeEvent(id: string, type: string, object: Record<string, unknown>) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    livemode: true,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

async function deliver(event: object, options: { secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WHSEC, timestamp: nowSeconds() });
  return control.post(`/processor/stripe/webhooks/${account.accountId}/live`, payload, { 'stripe-signature': header, 'content-type': 'application/json' });
}

const invoice = (id: string, extra: Record<string, unknown>) => ({
  id,
  object: 'invoice',
  currency: 'usd',
  customer: 'cus_e2e',
  livemode: true,
  parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_e2e', metadata: {} }, quote_details: null },
  amount_due: 900,
  amount_paid: 0,
  attempt_count: 1,
  next_payment_attempt: null,
  status: 'open',
  ...extra,
});

beforeAll(async () => {
  fake = await new FakeStripe().start();
  runtime = await startTestRuntime({ STRIPE_API_URL: fake.url });
  control = new ApiClient(runtime.url);
  account = await createTestAccount(runtime, 'tier2');
});
afterAll(async () => {
  await runtime?.stop();
  await fake?.stop();
});

describe('live payments through Stripe, driven by signed Stripe events', () => {
  it('the local runtime keeps the sandbox for live mode until Stripe is configured; /users/me shows each mode', async () => {
    expect((await account.live.get('/users/me')).body.processors).toEqual({ live: 'sandbox', test: 'sandbox' });
  });

  it('purchase, renewal, failure, recovery, refund and cancel: the same events as the sandbox path; forged, replayed and reordered events change nothing', async () => {
    // ---- the sandbox path (test mode) ----
    const testOffer = (await account.test.post('/subscriptions', { name: 'Club', price: 9, frequency: 'monthly' })).body;
    const testSession = (
      await account.test.post('/checkout/sessions', {
        productId: testOffer._id,
        successUrl: 'https://shop.example.com/ok',
        cancelUrl: 'https://shop.example.com/no',
      })
    ).body;
    const paid = (await control.post(`/_local/checkout/${testSession.id}/pay`, { email: 'sam@example.com', firstName: 'Sam', lastName: 'Roe', country: 'US' }))
      .body;
    for (const outcome of ['succeed', 'fail', 'succeed'])
      expect((await control.post(`/_local/subscribers/${paid.subscriberId}/renew`, { outcome })).status).toBe(200);
    expect((await control.post(`/_local/sales/${paid.saleId}/refund`, { amountCents: 300 })).status).toBe(200);
    const sandboxTypes = (await outbox('test')).map((e) => e.type);
    expect(sandboxTypes).toEqual(expect.arrayContaining(['invoice.payment_succeeded', 'invoice.payment_failed', 'order.refunded']));

    // ---- the Stripe path (live mode) ----
    const deps = runtime.adapters.deps;
    const live = { accountId: account.accountId, mode: 'live' as const };
    await setProcessorSettings({ store: deps.store, clock: deps.clock, encryption: deps.ports.encryption }, live, {
      provider: 'stripe',
      secrets: { secretKey: 'rk_live_e2e', webhookSecret: WHSEC },
    });
    (deps.ports.processor as unknown as { forget(): void }).forget();
    expect((await account.live.get('/users/me')).body.processors).toEqual({ live: 'stripe', test: 'sandbox' });
    expect(JSON.stringify((await account.live.get('/users/me')).body)).not.toContain('rk_live_e2e');

    const liveOffer = (await account.live.post('/subscriptions', { name: 'Club', price: 9, frequency: 'monthly' })).body;
    const liveSession = await account.live.post('/checkout/sessions', {
      productId: liveOffer._id,
      successUrl: 'https://shop.example.com/ok',
      cancelUrl: 'https://shop.example.com/no',
      clientReferenceId: 'crm-1',
    });
    expect(liveSession.status).toBe(201);
    expect(liveSession.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const sessionRequest = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    const metadata = Object.fromEntries(
      Object.entries(sessionRequest.form)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice(9, -1), v]),
    );
    const csId = liveSession.body.url.split('/').pop();

    const p0 = nowSeconds();
    const p1 = p0 + 30 * DAY;
    const p2 = p1 + 30 * DAY;
    fake.objects.sub_e2e = {
      id: 'sub_e2e',
      object: 'subscription',
      status: 'active',
      customer: 'cus_e2e',
      currency: 'usd',
      cancel_at_period_end: false,
      pause_collection: null,
      start_date: p0,
      trial_end: null,
      livemode: true,
      default_payment_method: { id: 'pm_e2e', object: 'payment_method', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2031 } },
      items: {
        object: 'list',
        data: [
          {
            id: 'si_e2e',
            object: 'subscription_item',
            current_period_start: p0,
            current_period_end: p1,
            price: { id: sessionRequest.form['line_items[0][price]'], unit_amount: 900, recurring: { interval: 'month', interval_count: 1 } },
          },
        ],
      },
      metadata: {},
    };
    for (const [inv, pi] of [
      ['in_1', 'pi_1'],
      ['in_2', 'pi_2'],
      ['in_3', 'pi_3'],
    ]) {
      fake.objects[`inpay_${inv}`] = {
        id: `inpay_${inv}`,
        object: 'invoice_payment',
        invoice: inv,
        status: 'paid',
        is_default: true,
        payment: { type: 'payment_intent', payment_intent: pi },
      };
    }
    const completed = stripeEvent('evt_checkout', 'checkout.session.completed', {
      id: csId,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      amount_total: 900,
      amount_subtotal: 900,
      currency: 'usd',
      client_reference_id: 'crm-1',
      customer: 'cus_e2e',
      customer_details: { email: 'sam@example.com', name: 'Sam Roe', address: { country: 'US' } },
      subscription: 'sub_e2e',
      invoice: 'in_1',
      payment_intent: null,
      metadata,
      livemode: true,
    });

    // A forged signature: 400, and nothing changes.
    const forged = await deliver(completed, { secret: 'whsec_attacker' });
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('INVALID_SIGNATURE');
    expect(await outbox('live')).toEqual([]);

    expect((await deliver(completed)).body).toEqual({ received: true });
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: true });
    const subscriber = (await account.live.get('/subscriptions/subscribers?limit=10')).body;
    const subscriberId = (subscriber.data ?? subscriber.subscribers ?? subscriber)[0]?._id;
    expect(subscriberId).toBeTruthy();

    const renewal = stripeEvent(
      'evt_renew',
      'invoice.paid',
      invoice('in_2', {
        billing_reason: 'subscription_cycle',
        amount_paid: 900,
        status: 'paid',
        lines: { object: 'list', data: [{ id: 'il_2', period: { start: p1, end: p2 } }] },
      }),
    );
    expect((await deliver(renewal)).body).toEqual({ received: true });
    const failure = stripeEvent(
      'evt_fail',
      'invoice.payment_failed',
      invoice('in_3', {
        billing_reason: 'subscription_cycle',
        attempt_count: 1,
        next_payment_attempt: p2 + 3 * DAY,
        lines: { object: 'list', data: [{ id: 'il_3', period: { start: p2, end: p2 + 30 * DAY } }] },
      }),
    );
    expect((await deliver(failure)).body).toEqual({ received: true });
    expect((await account.live.get(`/subscriptions/subscribers/${subscriberId}`)).body.status).toBe('past_due');
    const recovery = stripeEvent(
      'evt_recover',
      'invoice.paid',
      invoice('in_3', {
        billing_reason: 'subscription_cycle',
        amount_paid: 900,
        attempt_count: 2,
        status: 'paid',
        lines: { object: 'list', data: [{ id: 'il_3', period: { start: p2, end: p2 + 30 * DAY } }] },
      }),
    );
    expect((await deliver(recovery)).body).toEqual({ received: true });
    expect((await account.live.get(`/subscriptions/subscribers/${subscriberId}`)).body.status).toBe('active');

    // Replays and late, reordered copies change nothing.
    const before = await outbox('live');
    expect((await deliver(renewal)).body).toEqual({ received: true, duplicate: true });
    expect((await deliver({ ...failure, id: 'evt_fail_late' })).body).toEqual({ received: true, ignored: true });
    expect((await deliver({ ...renewal, id: 'evt_renew_late' })).body).toEqual({ received: true, ignored: true });
    expect(await outbox('live')).toEqual(before);
    expect((await account.live.get(`/subscriptions/subscribers/${subscriberId}`)).body.status).toBe('active');

    const refunded = stripeEvent('evt_refund', 'charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      amount: 900,
      amount_refunded: 300,
      refunded: false,
      currency: 'usd',
      payment_intent: 'pi_1',
      customer: 'cus_e2e',
      livemode: true,
      refunds: { object: 'list', data: [{ id: 're_1', object: 'refund', amount: 300 }] },
    });
    expect((await deliver(refunded)).body).toEqual({ received: true });
    expect((await deliver(refunded)).body).toEqual({ received: true, duplicate: true });

    // The same internal notifications: the same events, in the same order, as the sandbox path.
    // Mail queued by consumers (receipts, dunning) follows them asynchronously, so it is compared
    // by count, not by where it falls between them.
    const liveTypes = (await outbox('live')).map((e) => e.type);
    const queuedMail = (type: string) => type === 'email.transactional.queued';
    expect(liveTypes.filter((t) => !queuedMail(t))).toEqual(sandboxTypes.filter((t) => !queuedMail(t)));
    expect(liveTypes.filter(queuedMail).length).toBe(sandboxTypes.filter(queuedMail).length);

    // Cancel: the API asks Stripe to end at the period end; Stripe's deletion event ends it.
    fake.take();
    expect((await account.live.post(`/subscriptions/${subscriberId}/cancel`, {})).status).toBe(200);
    expect(fake.take().map((r) => [r.method, r.path, r.form.cancel_at_period_end, Boolean(r.idempotencyKey)])).toEqual([
      ['POST', '/v1/subscriptions/sub_e2e', 'true', true],
    ]);
    const deleted = stripeEvent('evt_deleted', 'customer.subscription.deleted', { ...fake.objects.sub_e2e, status: 'canceled', ended_at: nowSeconds() });
    expect((await deliver(deleted)).body).toEqual({ received: true });
    expect((await account.live.get(`/subscriptions/subscribers/${subscriberId}`)).body.status).toBe('canceled');
    const ended = await outbox('live');
    expect(ended.map((e) => e.type)).toContain('customer.subscription.deleted');
    // A late renewal after the end never brings the subscriber back.
    expect(
      (
        await deliver(
          stripeEvent(
            'evt_after_end',
            'invoice.paid',
            invoice('in_9', {
              billing_reason: 'subscription_cycle',
              amount_paid: 900,
              lines: { object: 'list', data: [{ id: 'il_9', period: { start: p2 + 30 * DAY, end: p2 + 60 * DAY } }] },
            }),
          ),
        )
      ).body,
    ).toEqual({ received: true, ignored: true });
    expect(await outbox('live')).toEqual(ended);
  });

  it('an event signed for another account, or a test-mode event on the live route, is refused', async () => {
    const other = await createTestAccount(runtime, 'tier2');
    const payload = JSON.stringify(stripeEvent('evt_x', 'invoice.paid', {}));
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC, timestamp: nowSeconds() });
    expect(
      (await control.post(`/processor/stripe/webhooks/${other.accountId}/live`, payload, { 'stripe-signature': header, 'content-type': 'application/json' }))
        .status,
    ).toBe(400);
    const testEvent = { ...stripeEvent('evt_y', 'invoice.paid', {}), livemode: false };
    expect((await deliver(testEvent)).body.code).toBe('MODE_MISMATCH');
  });
});
