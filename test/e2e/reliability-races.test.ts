import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { SANDBOX_NOTIFICATION_SECRET, SIGNATURE_HEADER, sign } from '../../shared/adapters/processor-sandbox/signing';
import { createProduct, events, openCheckout, pay } from '../support/commerce';
import { ApiClient, createTestAccount, startTestRuntime } from '../support/runtime';

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
      const made = await Promise.all(Array.from({ length: 9 }, (_, j) => account.test.post('/webhooks', { url: `https://hooks.example.com/${i + j}`, events: ['order.completed'] })));
      expect(statuses(made)).toEqual(Array(9).fill(201));
    }
    const racing = await Promise.all(Array.from({ length: 20 }, (_, i) => account.test.post('/webhooks', { url: `https://hooks.example.com/race-${i}`, events: ['order.completed'] })));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(5);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(15);
    expect((await account.test.get('/webhooks')).body.webhooks).toHaveLength(50);
    // Deleting one frees exactly one place.
    expect((await account.test.delete(`/webhooks/${racing.find((r) => r.status === 201)!.body.id}`)).status).toBe(200);
    const again = await Promise.all(Array.from({ length: 5 }, (_, i) => account.test.post('/webhooks', { url: `https://hooks.example.com/again-${i}`, events: ['order.completed'] })));
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
      return new ApiClient(runtime.url).post('/processor/notifications', body, { [SIGNATURE_HEADER]: sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(Date.now() / 1000), body) });
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
    expect(partial.filter((r) => r.status >= 500), partial.map((r) => r.text).join('\n')).toEqual([]);
    expect(partial.filter((r) => r.status === 200)).toHaveLength(15);
    expect(partial.filter((r) => r.status === 400)).toHaveLength(5);
    const full = await Promise.all(Array.from({ length: 10 }, () => refund({})));
    expect(full.filter((r) => r.status >= 500)).toEqual([]);
    expect(full.filter((r) => r.status === 200)).toHaveLength(0);
    expect(full.filter((r) => r.status === 400)).toHaveLength(10);
    // Nothing is left to refund once the racing ones are done.
    await new ApiClient(runtime.url).post('/_local/settle', {});
    expect((await refund({ amountCents: 1 })).status).toBe(400);
  });
});
