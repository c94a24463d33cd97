import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime } from '../support/runtime';
import { control, createProduct, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

describe('credits', () => {
  it('grants on purchase, deducts atomically, tops off once at zero, and pauses with an email when the top-off fails', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, { name: 'API credits', price: 10, productType: 'credits', creditAmount: 1000, creditAutoRefill: { enabled: true, topOffCents: 500 } });
    const paid = await pay(runtime, (await openCheckout(account, product._id)).id, { email: 'dev@example.com', saveCard: true });
    expect(paid.status).toBe('paid');

    let accounts = await account.test.get('/credits/accounts');
    expect(accounts.body).toHaveLength(1);
    expect(accounts.body[0]).toMatchObject({ productId: product._id, buyerEmail: 'dev@example.com', balanceCents: 1000, status: 'active', autoRefill: { enabled: true } });
    expect((await events(runtime, account)).filter((e) => e.type.startsWith('credit.')).map((e) => e.type)).toEqual(['credit.granted', 'credit.balance_changed', 'credit.consent.enabled']);

    const bad = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 1.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('amountCents');
    const tooMuch = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 1001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_CREDITS');

    // Racing deductions never take the balance below zero.
    const racing = await Promise.all(Array.from({ length: 4 }, () => account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 300 })));
    expect(racing.filter((r) => r.status === 200)).toHaveLength(3);
    expect(racing.filter((r) => r.status === 409)).toHaveLength(1);
    accounts = await account.test.get('/credits/accounts?email=dev@example.com');
    expect(accounts.body[0].balanceCents).toBe(100);

    // Reaching zero charges the saved card once for the top-off.
    const toZero = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 100 });
    expect(toZero.body).toMatchObject({ balanceCents: 500, autoRefill: { attempted: true, succeeded: true } });
    const refill = await events(runtime, account, 'credit.auto_refill.succeeded');
    expect(refill).toHaveLength(1);
    expect(refill[0]!.data.amountCents).toBe(500);
    expect((await account.test.get('/orders')).body).toHaveLength(2);

    // A refused charge pauses the balance and emails the buyer; nothing is retried.
    await control(runtime).post('/_local/processor/refuse-next', { operation: 'charge' });
    const failed = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 500 });
    expect(failed.body).toMatchObject({ balanceCents: 0, autoRefill: { attempted: true, succeeded: false }, account: { status: 'paused' } });
    expect(await events(runtime, account, 'credit.auto_refill.failed')).toHaveLength(1);
    const mail = await control(runtime).get('/_local/emails?to=dev@example.com');
    expect(mail.body.emails.some((m: any) => /paused/.test(m.subject))).toBe(true);
    const paused = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 1 });
    expect(paused.status).toBe(409);
    expect(paused.body.code).toBe('CREDITS_PAUSED');
    expect((await account.test.get('/orders')).body).toHaveLength(2);
    expect((await account.live.get('/credits/accounts')).body).toEqual([]);
  });
});
