import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { createOffer, createProduct, events, openCheckout, pay } from '../support/commerce';
import { ApiClient, createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';

// Racing duplicates change state once: every request gets a clear answer (never a 5xx) and the
// outcome is what one request at a time would give.

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => {
  await runtime?.stop();
});

const statuses = (answers: { status: number }[]) => answers.map((a) => a.status).sort();

describe('races', () => {
  it('never passes the webhook endpoint limit with concurrent creates', async () => {
    const account = await createTestAccount(runtime, 'volume');
    for (let i = 0; i < 45; i += 9) {
      const made = await Promise.all(
        Array.from({ length: 9 }, (_, j) => account.test.post('/webhooks', { url: `https://hooks.example.com/${i + j}`, events: ['order.completed'] })),
      );
      expect(statuses(made)).toEqual(Array(9).fill(201));
    }
    const racing = await Promise.all(
      Array.from({ length: 20 }, (_, i) => account.test.post('/webhooks', { url: `https://hooks.example.com/race-${i}`, events: ['order.completed'] })),
    );
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(15);
    expect((await account.test.get('/webhooks')).body.webhooks).toHaveLength(50);
    // Deleting one frees exactly one place.
    expect((await account.test.delete(`/webhooks/${racing.find((r) => r.status === 201)!.body.id}`)).status).toBe(200);
    const again = await Promise.all(
      Array.from({ length: 5 }, (_, i) => account.test.post('/webhooks', { url: `https://hooks.example.com/again-${i}`, events: ['order.completed'] })),
    );
    expect(statuses(again)).toEqual([201, 409, 409, 409, 409]);
  });

  it('answers distinct processor notifications completing one session as duplicates of the one that did', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, { name: 'Race ebook', price: 7 });
    const session = await openCheckout(account, product._id, { clientReferenceId: 'race-ntf' });
    const created = Math.floor(Date.now() / 1000);
    const post = (n: number) => {
      const body = JSON.stringify({
        id: `ntf_race_${String(n).padStart(16, '0')}`,
        type: 'checkout.completed',
        created,
        accountId: account.accountId,
        mode: 'test',
        data: {
          checkoutId: 'cs_race',
          sessionId: session.id,
          buyer: { email: 'racer@example.com', firstName: 'R', lastName: null, country: 'NL' },
          paymentMethod: { id: 'payt_race', type: 'card', brand: 'visa', last4: '4242', expMonth: 1, expYear: 2030 },
          savedCard: false,
          payment: { id: `pay_race${String(n).padStart(20, '0')}`, amountCents: 700, currency: 'USD', planId: 'plan_race' },
          membership: null,
        },
      });
      return new ApiClient(runtime.url).post('/processor/notifications', body, {
        [SIGNATURE_HEADER]: sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(Date.now() / 1000), body),
      });
    };
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => post(n)));
    expect(statuses(answers), answers.map((a) => a.text).join('\n')).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => !a.body.duplicate)).toHaveLength(1);
    const completed = (await events(runtime, account, 'order.completed')).filter((e) => e.data.clientReferenceId === 'race-ntf');
    expect(completed).toHaveLength(1);
  });

  it('applies concurrent refunds of one sale up to its amount, refusing the rest with a 4xx', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, { name: 'Refundable', price: 15 });
    const session = await openCheckout(account, product._id);
    const { saleId } = await pay(runtime, session.id, { email: 'refund@example.com' });
    const refund = (body: Record<string, unknown>) => new ApiClient(runtime.url).post(`/_local/sales/${saleId}/refund`, body);
    const partial = await Promise.all(Array.from({ length: 20 }, () => refund({ amountCents: 100 })));
    expect(
      partial.filter((r) => r.status >= 500),
      partial.map((r) => r.text).join('\n'),
    ).toEqual([]);
    expect(partial.filter((r) => r.status === 200)).toHaveLength(15);
    expect(partial.filter((r) => r.status === 400)).toHaveLength(5);
    const full = await Promise.all(Array.from({ length: 10 }, () => refund({})));
    expect(full.filter((r) => r.status >= 500)).toEqual([]);
    expect(full.filter((r) => r.status === 200)).toHaveLength(0);
    expect(full.filter((r) => r.status === 400)).toHaveLength(10);
    // Nothing is left to refund once the racing ones are done.
    await settleWithRetries(runtime);
    expect((await refund({ amountCents: 1 })).status).toBe(400);
  });

  it('gives a maxUses 1 discount to exactly one of twenty sessions paid at once, refusing the rest with a 409', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, { name: 'Limited ebook', price: 20 });
    const discount = (await account.test.post('/discounts', { name: 'Once', code: 'RACEONCE', value: 50, mainProductIds: [product._id], maxUses: 1 })).body;
    // Every session opens while the code is unused: the limit can only hold at payment.
    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => openCheckout(account, product._id, { discountCode: 'raceonce', clientReferenceId: `race-disc-${i}` })),
    );
    const control = new ApiClient(runtime.url);
    // Half pay through the control route, half through the hosted page's form post.
    const answers = await Promise.all(
      sessions.map(async (session, i) => {
        if (i % 2 === 0) {
          const res = await control.post(`/_local/checkout/${session.id}/pay`, { email: `disc${i}@example.com` });
          return { paid: res.status === 200 && res.body.status === 'paid', status: res.status, code: res.body?.code, text: res.text };
        }
        const res = await fetch(session.url, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `disc${i}@example.com`, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }),
        });
        const text = await res.text();
        return { paid: res.status === 303, status: res.status, code: text.includes('limit of uses') ? 'DISCOUNT_EXHAUSTED' : undefined, text };
      }),
    );
    expect(
      answers.filter((a) => a.status >= 500),
      answers.map((a) => a.text).join('\n'),
    ).toEqual([]);
    expect(answers.filter((a) => a.paid)).toHaveLength(1);
    const refused = answers.filter((a) => !a.paid);
    expect(refused.map((a) => [a.status, a.code])).toEqual(Array(19).fill([409, 'DISCOUNT_EXHAUSTED']));
    const completed = (await events(runtime, account, 'order.completed')).filter((e) => String(e.data.clientReferenceId ?? '').startsWith('race-disc-'));
    expect(completed).toHaveLength(1);
    expect((await account.test.get(`/discounts/${discount._id}`)).body.uses).toBe(1);
    // A refused session stays open and unpaid: paying it again is still refused, nothing charged.
    const loser = sessions[answers.findIndex((a) => !a.paid)]!;
    const again = await control.post(`/_local/checkout/${loser.id}/pay`, { email: 'again@example.com' });
    expect([again.status, again.body.code]).toEqual([409, 'DISCOUNT_EXHAUSTED']);
    expect((await account.test.get(`/discounts/${discount._id}`)).body.uses).toBe(1);
  });

  it('does not spend a discount use on a declined card', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, { name: 'Declinable', price: 10 });
    const discount = (await account.test.post('/discounts', { name: 'Once', code: 'DECLINE1', value: 10, mainProductIds: [product._id], maxUses: 1 })).body;
    const first = await openCheckout(account, product._id, { discountCode: 'DECLINE1' });
    const second = await openCheckout(account, product._id, { discountCode: 'DECLINE1' });
    const declined = await new ApiClient(runtime.url).post(`/_local/checkout/${first.id}/pay`, { email: 'declined@example.com', card: '4000000000000002' });
    expect(declined.body.status).toBe('declined');
    expect((await account.test.get(`/discounts/${discount._id}`)).body.uses).toBe(0);
    const paid = await pay(runtime, second.id, { email: 'paid@example.com' });
    expect(paid.saleId).toBeTruthy();
    expect((await account.test.get(`/discounts/${discount._id}`)).body.uses).toBe(1);
    // The sale is recorded once, at the discounted price, and completion did not count the claimed use again.
    const completed = await events(runtime, account, 'order.completed');
    expect(completed).toHaveLength(1);
    expect(JSON.stringify(completed[0]!.data)).toContain('DECLINE1');
    expect((await account.test.get(`/discounts/${discount._id}`)).body.uses).toBe(1);
  });

  it('serialises ten cancels and ten resumes of one subscriber: the record and the processor agree, one event per change', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offer = await createOffer(account, { name: 'Race club', price: 5, frequency: 'monthly' });
    // One trial: with the lease the outcome no longer depends on timing (it did 1 in 31 before).
    for (let trial = 0; trial < 1; trial++) {
      const session = await openCheckout(account, offer._id);
      const { subscriberId } = await pay(runtime, session.id, { email: `member${trial}@example.com` });
      expect(subscriberId).toBeTruthy();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => account.test.post(`/subscriptions/${subscriberId}/${i % 2 === 0 ? 'cancel' : 'resume'}`, {})),
      );
      // On a loaded machine a change may give up waiting: a clear 409 that changed nothing.
      const done = answers.map((a, i) => ({ a, cancel: i % 2 === 0 })).filter(({ a }) => a.status === 200);
      expect(
        answers.filter((a) => a.status !== 200 && !(a.status === 409 && a.body.code === 'CONCURRENT_UPDATE')),
        answers.map((a) => a.text).join('\n'),
      ).toEqual([]);
      expect(done.length).toBeGreaterThanOrEqual(10);
      const detail = (await account.test.get(`/subscriptions/subscribers/${subscriberId}?live=true`)).body;
      expect(detail.processorMembership).toBeTruthy();
      expect(detail.cancelAtPeriodEnd).toBe(detail.processorMembership.cancelAtPeriodEnd);
      expect(detail.status).toBe('active');
      // Each answer saw the state the one before it left: a cancel that scheduled the end emitted
      // one update, a resume that undid it one resumed event, alternately.
      const mine = (await events(runtime, account)).filter((e) => e.data.subscriptionCustomerId === subscriberId);
      // .updated also rides beside every .resumed (the catalogue's "every state change").
      const scheduled =
        mine.filter((e) => e.type === 'customer.subscription.updated').length - mine.filter((e) => e.type === 'customer.subscription.resumed').length;
      const resumed = mine.filter((e) => e.type === 'customer.subscription.resumed').length;
      expect(scheduled - resumed).toBe(detail.cancelAtPeriodEnd ? 1 : 0);
      // Every change that went through answered the state it left (a cancel scheduled, a resume undid).
      expect(done.filter(({ a, cancel }) => a.body.cancelAtPeriodEnd !== cancel)).toEqual([]);
    }
  }, 180_000);
});
