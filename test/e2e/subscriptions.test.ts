import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { advanceDays, control, createOffer, events, openCheckout, pay, type OutboxEvent } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { SANDBOX_NOTIFICATION_SECRET, sign } from '../../shared/adapters/processor-sandbox/signing';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const SUB_TYPES = new Set([
  'invoice.created',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.upcoming',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'order.completed',
  'customer.created',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.pause',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
]);

/** The money-path events of one account, after the last one seen. */
async function next(account: TestAccount, cursor: { last?: string }): Promise<OutboxEvent[]> {
  const all = (await events(runtime, account)).filter((e) => SUB_TYPES.has(e.type));
  const fresh = cursor.last ? all.filter((e) => e.id > cursor.last!) : all;
  if (all.length) cursor.last = all[all.length - 1]!.id;
  return fresh;
}

async function subscribe(account: TestAccount, offerId: string, email: string, extra: Record<string, unknown> = {}) {
  const session = await openCheckout(account, offerId, extra);
  const paid = await pay(runtime, session.id, { email, firstName: 'Sam', lastName: 'Roe' });
  expect(paid.subscriberId).toMatch(/^[0-9a-f]{24}$/);
  return paid;
}

const renew = (id: string, outcome: 'succeed' | 'fail') => control(runtime).post(`/_local/subscribers/${id}/renew`, { outcome });

describe('subscription lifecycle', () => {
  it('activates, renews, fails, recovers, and ends after exhausted retries, with the exact events', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const cursor: { last?: string } = {};
    const offer = await createOffer(account, { name: 'Pro Club', price: 12, frequency: 'monthly' });
    const paid = await subscribe(account, offer._id, 'sub1@example.com', { clientReferenceId: 'crm-7', metadata: { plan: 'gold' } });
    const id = paid.subscriberId!;

    let evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_succeeded',
      'payment_intent.succeeded',
      'order.completed',
      'customer.created',
      'customer.subscription.created',
    ]);
    for (const e of evs.slice(0, 2)) {
      expect(e.data.subscriptionCustomerId).toBeNull();
      expect(e.data.subscription).toMatchObject({ id: offer._id, customerId: null });
      expect(e.data.billingReason).toBe('initial');
    }
    const created = evs[5]!.data;
    expect(created.subscriptionCustomerId).toBe(id);
    expect(created.subscription).toMatchObject({ id: offer._id, customerId: id });
    expect(created.subscriptionCustomer).toEqual({ id, status: 'active', active: true, cancelAtPeriodEnd: false, paused: false });
    expect(created.customer).toEqual({ email: 'sub1@example.com', firstName: 'Sam', lastName: 'Roe' });
    expect(created.paymentMethod).toMatchObject({ type: 'card', last4: '4242' });
    expect(created.paymentMethod.id).toMatch(/^payt_/);
    expect(created.clientReferenceId).toBe('crm-7');
    expect(created.metadata).toEqual({ plan: 'gold' });
    expect(created.portalUrl).toContain(`/subscriptions/sub/portal-data/${offer._id}/${id}?token=`);
    expect(evs[3]!.data.order.planId).toMatch(/^plan_/);

    const detail = await account.test.get(`/subscriptions/subscribers/${id}?live=true`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ _id: id, status: 'active', active: true, cancelAtPeriodEnd: false, paused: false });
    expect(detail.body.membershipId).toMatch(/^mem_/);
    expect(detail.body.processorMembership).toMatchObject({ id: detail.body.membershipId, status: 'active' });
    // Processor ids keep the spec's prefixes: sub_, plan_, pay_, mem_, payt_.
    expect(detail.body.processorMembership.subscriptionId).toMatch(/^sub_[0-9A-Za-z]{24}$/);
    expect(detail.body.membershipId).toMatch(/^mem_[0-9A-Za-z]{24}$/);
    expect(detail.body.processorMembership.paymentMethod.id).toMatch(/^payt_[0-9A-Za-z]{24}$/);
    const firstPayment = (await account.test.get(`/payments/${detail.body.payments[0]._id}`)).body;
    expect(firstPayment.processor).toMatchObject({
      paymentIntentId: expect.stringMatching(/^pay_/),
      planId: expect.stringMatching(/^plan_/),
      membershipId: detail.body.membershipId,
    });
    expect(detail.body.payments).toHaveLength(1);
    expect((await account.test.get(`/subscriptions/subscribers/${detail.body.membershipId}`)).status).toBe(400);
    expect((await account.live.get(`/subscriptions/subscribers/${id}`)).status).toBe(404);

    // Renewal.
    expect((await renew(id, 'succeed')).body.status).toBe('active');
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['invoice.created', 'invoice.payment_succeeded', 'order.completed', 'customer.created']);
    expect(evs[0]!.data.subscriptionCustomerId).toBe(id);
    expect(evs[0]!.data.billingReason).toBe('renewal');
    expect(evs[2]!.data.metadata).toEqual({ plan: 'gold' });

    // Failure: past_due.
    expect((await renew(id, 'fail')).body.status).toBe('past_due');
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['invoice.created', 'invoice.payment_failed', 'payment_intent.payment_failed', 'customer.subscription.updated']);
    const updated = evs[3]!.data;
    expect(updated.failureMessage).toMatch(/declined/);
    expect(updated).not.toHaveProperty('cancelAtPeriodEnd');
    expect(updated.subscriptionCustomer.status).toBe('past_due');
    expect(evs[2]!.data.declinedCard).toMatchObject({ last4: '4242' });

    // Recovery: active again, one .updated.
    expect((await renew(id, 'succeed')).body.status).toBe('active');
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['invoice.payment_succeeded', 'order.completed', 'customer.created', 'customer.subscription.updated']);
    expect(evs[3]!.data.cancelAtPeriodEnd).toBe(false);

    // Fail again, then let the retries (1, 2 and 4 days later) run out.
    await renew(id, 'fail');
    await next(account, cursor);
    await advanceDays(runtime, 1.1);
    await advanceDays(runtime, 2.1);
    let now = await account.test.get(`/subscriptions/subscribers/${id}`);
    expect(now.body.status).toBe('past_due');
    await advanceDays(runtime, 4.1);
    now = await account.test.get(`/subscriptions/subscribers/${id}`);
    expect(now.body).toMatchObject({ status: 'canceled', active: false });
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual([
      'invoice.payment_failed',
      'payment_intent.payment_failed',
      'invoice.payment_failed',
      'payment_intent.payment_failed',
      'invoice.payment_failed',
      'payment_intent.payment_failed',
      'customer.subscription.deleted',
      'customer.subscription.updated',
    ]);
    const deleted = evs[6]!.data;
    expect(deleted).toMatchObject({ subscriptionCustomerId: id, status: 'canceled', active: false });
    expect(deleted).not.toHaveProperty('paymentMethod');
    expect(deleted).not.toHaveProperty('subscriptionCustomer');
    // A receiver listening only to .updated sees the cancellation too.
    expect(evs[7]!.data).toMatchObject({ subscriptionCustomerId: id, status: 'canceled', subscriptionCustomer: { id, status: 'canceled', active: false } });

    const order = await account.test.get(`/orders/subscriptions/${id}`);
    expect(order.body.status).toBe('canceled');
    expect(order.body.sales.map((s: any) => s.billingReason)).toEqual(['renewal', 'renewal', 'initial']);
    expect(order.body.sales.every((s: any) => s.productId === '' && s.subscriptionId === offer._id)).toBe(true);
  });

  it('sends invoice.upcoming 3 days ahead and renews on the period boundary; cancel at period end stops both', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const cursor: { last?: string } = {};
    const offer = await createOffer(account, { name: 'Weekly tips', price: 3, frequency: 'weekly' });
    const a = (await subscribe(account, offer._id, 'renewing@example.com')).subscriberId!;
    const b = (await subscribe(account, offer._id, 'leaving@example.com')).subscriberId!;
    await next(account, cursor);

    const cancel = await account.test.post(`/subscriptions/${b}/cancel`, {});
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, active: true });
    let evs = await next(account, cursor);
    expect(evs.map((e) => [e.type, e.data.subscriptionCustomerId])).toEqual([['customer.subscription.updated', b]]);
    expect(evs[0]!.data.cancelAtPeriodEnd).toBe(true);

    await advanceDays(runtime, 4.5);
    evs = await next(account, cursor);
    expect(evs.map((e) => [e.type, e.data.subscriptionCustomerId])).toEqual([['invoice.upcoming', a]]);

    await advanceDays(runtime, 3);
    evs = await next(account, cursor);
    expect(evs.filter((e) => e.data.subscriptionCustomerId === a || e.data.order?.id).map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_succeeded',
      'order.completed',
      'customer.created',
    ]);
    expect(evs.filter((e) => e.data.subscriptionCustomerId === b).map((e) => e.type)).toEqual([
      'customer.subscription.deleted',
      'customer.subscription.updated',
    ]);
    expect((await account.test.get(`/subscriptions/subscribers/${b}`)).body).toMatchObject({ status: 'canceled', active: false, cancelAtPeriodEnd: false });
    const list = await account.test.get(`/subscriptions/subscribers?status=active&subscriptionId=${offer._id}`);
    expect(list.body.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ _id: a, status: 'active', subscription: { id: offer._id, name: 'Weekly tips' } });
    expect(list.body.data[0].portalUrl).toContain('token=');
    const byEmail = await account.test.get('/subscriptions/subscribers?email=LEAVING@example.com');
    expect(byEmail.body.data.map((s: any) => s._id)).toEqual([b]);
  });

  it('pauses and resumes (processor first; refusal is 502 and changes nothing), by _id or mem_ id', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const cursor: { last?: string } = {};
    const offer = await createOffer(account, { name: 'Monthly box', price: 20, frequency: 'monthly' });
    const id = (await subscribe(account, offer._id, 'pause@example.com')).subscriberId!;
    const mem = (await account.test.get(`/subscriptions/subscribers/${id}`)).body.membershipId;
    await next(account, cursor);

    await control(runtime).post('/_local/processor/refuse-next', { operation: 'pause' });
    const refused = await account.test.post(`/subscriptions/${id}/pause`, {});
    expect(refused.status).toBe(502);
    expect((await account.test.get(`/subscriptions/subscribers/${id}`)).body).toMatchObject({ status: 'active', paused: false });
    expect(await next(account, cursor)).toEqual([]);

    const paused = await account.test.post(`/subscriptions/${mem}/pause`, {});
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ _id: id, paused: true, status: 'paused', active: true });
    let evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['customer.subscription.pause', 'customer.subscription.updated']);
    expect(evs[0]!.data).toMatchObject({ subscriptionCustomerId: id, accessRetained: true });
    expect(evs[1]!.data).toMatchObject({ subscriptionCustomerId: id, subscriptionCustomer: { id, status: 'paused', paused: true, active: true } });
    expect((await account.test.get(`/subscriptions/subscribers/${id}?live=true`)).body.processorMembership.paused).toBe(true);

    // No renewal and no invoice.upcoming while paused.
    await advanceDays(runtime, 35);
    expect(await next(account, cursor)).toEqual([]);

    await control(runtime).post('/_local/processor/refuse-next', { operation: 'resume' });
    expect((await account.test.post(`/subscriptions/${id}/resume`, {})).status).toBe(502);
    const resumed = await account.test.post(`/subscriptions/${id}/resume`, {});
    expect(resumed.body).toMatchObject({ status: 'active', paused: false });
    evs = await next(account, cursor);
    expect(evs[0]!.type).toBe('customer.subscription.resumed');
    expect(evs[1]).toMatchObject({ type: 'customer.subscription.updated', data: { subscriptionCustomer: { id, status: 'active', paused: false } } });
    // The overdue period is charged right after resuming.
    expect(evs.slice(2).map((e) => e.type)).toEqual(['invoice.created', 'invoice.payment_succeeded', 'order.completed', 'customer.created']);

    expect((await account.test.post('/subscriptions/mem_doesnotexist000000000000/pause', {})).status).toBe(404);
    expect((await account.test.post(`/subscriptions/${'f'.repeat(24)}/pause`, {})).status).toBe(404);
  });

  it('runs a trial: trial_will_end 3 days before, first charge at trial end', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const cursor: { last?: string } = {};
    const offer = await createOffer(account, { name: 'Trial club', price: 7, frequency: 'monthly', trialPeriod: 7 });
    const id = (await subscribe(account, offer._id, 'trial@example.com')).subscriberId!;
    let evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['customer.subscription.created']);
    expect(evs[0]!.data.subscriptionCustomer.status).toBe('trialing');
    await advanceDays(runtime, 4.5);
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual(['customer.subscription.trial_will_end']);
    expect(evs[0]!.data).not.toHaveProperty('paymentMethod');
    await advanceDays(runtime, 3);
    evs = await next(account, cursor);
    expect(evs.map((e) => e.type)).toEqual([
      'invoice.created',
      'invoice.payment_succeeded',
      'payment_intent.succeeded',
      'order.completed',
      'customer.created',
      'customer.subscription.updated',
    ]);
    expect(evs[0]!.data).toMatchObject({ subscriptionCustomerId: id, billingReason: 'initial' });
    expect((await account.test.get(`/subscriptions/subscribers/${id}`)).body.status).toBe('active');
  });
});

describe('buyer portal', () => {
  it('reads with the pair, manages only with the token, and hides which id exists', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const cursor: { last?: string } = {};
    const offer = await createOffer(account, { name: 'Portal club', price: 5, frequency: 'monthly' });
    const other = await createOffer(account, { name: 'Other', price: 5, frequency: 'monthly' });
    const id = (await subscribe(account, offer._id, 'portal@example.com')).subscriberId!;
    await next(account, cursor);
    const sub = (await account.test.get(`/subscriptions/subscribers/${id}`)).body;
    const token = new URL(sub.portalUrl).searchParams.get('token')!;
    const anon = new ApiClient(runtime.url);

    const readOnly = await anon.get(`/subscriptions/sub/portal-data/${offer._id}/${id}`);
    expect(readOnly.status).toBe(200);
    expect(readOnly.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, canManage: false });
    expect(readOnly.body.payments).toHaveLength(1);
    const full = await anon.get(`/subscriptions/sub/portal-data/${offer._id}/${id}?token=${token}`);
    expect(full.body).toMatchObject({ canManage: true });
    expect(full.body.manageUrl).toBe(sub.portalUrl);
    for (const path of [`${other._id}/${id}`, `${offer._id}/${'a'.repeat(24)}`, `${'b'.repeat(24)}/${'c'.repeat(24)}`, `${offer._id}/not-an-id`]) {
      const res = await anon.get(`/subscriptions/sub/portal-data/${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('Subscription not found');
    }
    expect((await anon.post(`/subscriptions/sub/portal/${id}/cancel`, {})).status).toBe(403);
    expect((await anon.post(`/subscriptions/sub/portal/${id}/cancel?token=wrong${token}`, {})).status).toBe(404);

    // Period-end cancel even though the processor refuses: the intent is recorded.
    await control(runtime).post('/_local/processor/refuse-next', { operation: 'cancel' });
    const scheduled = await anon.post(`/subscriptions/sub/portal/${id}/cancel?token=${token}`, {});
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, processorSynced: false, manageUrl: sub.portalUrl });
    expect((await next(account, cursor)).map((e) => e.type)).toEqual(['customer.subscription.updated']);
    // The recorded intent reaches the processor once it accepts again, and is then cleared.
    const synced = (await account.test.get(`/subscriptions/subscribers/${id}?live=true`)).body;
    expect(synced.processorMembership.cancelAtPeriodEnd).toBe(true);
    expect(synced.processorSyncPending).toBeNull();

    const resumed = await anon.post(`/subscriptions/sub/portal/${id}/resume?token=${token}`, {});
    expect(resumed.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, processorSynced: true });
    expect((await next(account, cursor)).map((e) => e.type)).toEqual(['customer.subscription.resumed', 'customer.subscription.updated']);

    const now = await anon.post(`/subscriptions/sub/portal/${id}/cancel`, { immediate: true, token });
    expect(now.body).toMatchObject({ status: 'canceled', active: false });
    expect((await next(account, cursor)).map((e) => e.type)).toEqual(['customer.subscription.deleted', 'customer.subscription.updated']);
    expect((await account.test.get(`/subscriptions/subscribers/${id}?live=true`)).body.processorMembership.status).toBe('canceled');

    const back = await anon.post(`/subscriptions/sub/portal/${id}/resume?token=${token}`, {});
    expect(back.body).toMatchObject({ status: 'active', active: true });
    expect((await next(account, cursor)).map((e) => e.type)).toEqual(['customer.subscription.resumed', 'customer.subscription.updated']);
  });
});

describe('processor ingress', () => {
  const post = (body: string, signature?: string) =>
    fetch(`${runtime.url}/processor/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'x-processor-signature': signature } : {}) },
      body,
    });
  const signed = (body: string) => sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(Date.parse(runtime.clock.now().toISOString()) / 1000), body);

  it('refuses bad signatures, ignores unknown types, and applies a notification once even when delivered twice or racing', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offer = await createOffer(account, { name: 'Idem', price: 4, frequency: 'monthly' });
    const id = (await subscribe(account, offer._id, 'idem@example.com')).subscriberId!;
    const sub = (await account.test.get(`/subscriptions/subscribers/${id}`)).body;
    const notification = (nid: string) =>
      JSON.stringify({
        id: nid,
        type: 'charge.succeeded',
        created: Math.floor(runtime.clock.nowMs() / 1000),
        accountId: account.accountId,
        mode: 'test',
        data: {
          membershipId: sub.membershipId,
          billingReason: 'renewal',
          recovered: false,
          payment: { id: `pay_${nid.slice(4).padEnd(24, 'x')}`, amountCents: 400, currency: 'USD', planId: 'plan_x' },
          paymentMethod: sub.paymentMethod,
          membership: { status: 'active', currentPeriodStart: sub.currentPeriodStart, currentPeriodEnd: sub.currentPeriodEnd },
        },
      });
    const salesCount = async () => (await account.test.get('/payments?type=subscription')).body.length;
    expect(await salesCount()).toBe(1);

    const body = notification('ntf_dup0000000000000000000001');
    expect((await post(body)).status).toBe(400);
    expect((await post(body, 't=1,v1=abc')).status).toBe(400);
    // Change the signature's last hex digit (to another digit: one signature in 16 already ends in 0).
    expect(
      (
        await post(
          body,
          signed(body).replace(/.$/, (last) => (last === '0' ? '1' : '0')),
        )
      ).status,
    ).toBe(400);
    expect(await salesCount()).toBe(1);

    expect((await post(body, signed(body))).status).toBe(200);
    const second = await post(body, signed(body));
    expect(second.status).toBe(200);
    expect((await second.json()).duplicate).toBe(true);
    expect(await salesCount()).toBe(2);

    const racing = notification('ntf_race000000000000000000001');
    const results = await Promise.all([post(racing, signed(racing)), post(racing, signed(racing)), post(racing, signed(racing))]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await Promise.all(results.map((r) => r.json()))).filter((b) => !b.duplicate)).toHaveLength(1);
    expect((await post(racing, signed(racing))).status).toBe(200);
    expect(await salesCount()).toBe(3);
    const renewals = (await events(runtime, account, 'invoice.payment_succeeded')).filter((e) => e.data.billingReason === 'renewal');
    expect(renewals).toHaveLength(2);

    const unknown = JSON.stringify({ id: 'ntf_unknown', type: 'payout.paid', created: 1, accountId: account.accountId, mode: 'test', data: {} });
    const ignored = await post(unknown, signed(unknown));
    expect(ignored.status).toBe(200);
    expect((await ignored.json()).ignored).toBe(true);
  });
});
