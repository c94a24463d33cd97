import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, settleWithRetries, startTestRuntime } from '../support/runtime';
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
    const product = await createProduct(account, {
      name: 'API credits',
      price: 10,
      productType: 'credits',
      creditAmount: 1000,
      creditAutoRefill: { enabled: true, topOffCents: 500 },
    });
    const paid = await pay(runtime, (await openCheckout(account, product._id)).id, { email: 'dev@example.com', saveCard: true });
    expect(paid.status).toBe('paid');

    let accounts = await account.test.get('/credits/accounts');
    expect(accounts.body).toHaveLength(1);
    expect(accounts.body[0]).toMatchObject({
      productId: product._id,
      buyerEmail: 'dev@example.com',
      balanceCents: 1000,
      status: 'active',
      autoRefill: { enabled: true },
    });
    expect((await events(runtime, account)).filter((e) => e.type.startsWith('credit.')).map((e) => e.type)).toEqual([
      'credit.granted',
      'credit.balance_changed',
      'credit.consent.enabled',
    ]);

    const bad = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 1.5 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('amountCents');
    const tooMuch = await account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 1001 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.code).toBe('INSUFFICIENT_CREDITS');

    // Racing deductions never take the balance below zero.
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => account.test.post('/credits/deduct', { productId: product._id, email: 'dev@example.com', amountCents: 300 })),
    );
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
    // The paused mail carries the buyer's balance link too.
    expect(mail.body.emails.find((m: any) => /paused/.test(m.subject)).text).toMatch(/turn off automatic top-ups: http\S+\/credits\/balance\/[0-9A-Za-z]{32}/);
  });

  it('consent can be withdrawn by the seller (DELETE .../consent) or the buyer (the link in every credit mail): credit.consent.disabled, the card detached, no top-off after', {
    timeout: 240_000,
  }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const other = await createTestAccount(runtime, 'volume');
    const product = await createProduct(account, {
      name: 'Render minutes',
      price: 10,
      productType: 'credits',
      creditAmount: 1000,
      creditAutoRefill: { enabled: true, topOffCents: 500 },
    });
    const buy = async (email: string) => {
      expect((await pay(runtime, (await openCheckout(account, product._id)).id, { email, saveCard: true })).status).toBe('paid');
      await settleWithRetries(runtime);
    };
    const mailsTo = async (to: string) =>
      (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails as { subject: string; text: string; html: string }[];
    const linkIn = (text: string) => /(http\S+\/credits\/balance\/[0-9A-Za-z]{32})/.exec(text)?.[1];
    const deductAll = (email: string, amountCents: number) => account.test.post('/credits/deduct', { productId: product._id, email, amountCents });
    const cardOf = async (email: string) => (await account.test.get(`/credits/accounts?email=${email}`)).body[0];

    // Seller: by the id GET /credits/accounts lists.
    await buy('seller-off@example.com');
    const on = await mailsTo('seller-off@example.com');
    const enabledMail = on.find((m) => /Automatic top-ups are on/.test(m.subject));
    expect(enabledMail?.text).toContain('$5.00');
    expect(linkIn(enabledMail!.text)).toBeTruthy();
    const credit = await cardOf('seller-off@example.com');
    const paymentMethodId = credit.autoRefill.paymentMethodId;
    expect(paymentMethodId).toMatch(/^payt_/);
    for (const stranger of [other.test, account.live]) expect((await stranger.delete(`/credits/accounts/${credit._id}/consent`)).status).toBe(404);
    expect((await account.test.delete(`/credits/accounts/${'0'.repeat(24)}/consent`)).status).toBe(404);
    expect((await account.test.delete('/credits/accounts/not-an-id/consent')).status).toBe(404);
    expect((await cardOf('seller-off@example.com')).autoRefill.enabled).toBe(true);
    const off = await account.test.delete(`/credits/accounts/${credit._id}/consent`);
    expect(off.status, off.text).toBe(200);
    expect(off.body).toMatchObject({ _id: credit._id, balanceCents: 1000, autoRefill: { enabled: false, paymentMethodId: null } });
    expect((await account.test.delete(`/credits/accounts/${credit._id}/consent`)).status).toBe(200);
    await settleWithRetries(runtime);
    const disabled = await events(runtime, account, 'credit.consent.disabled');
    expect(disabled).toHaveLength(1);
    expect(disabled[0]!.data).toMatchObject({ account: { id: credit._id, email: 'seller-off@example.com' }, paymentMethodId, by: 'seller' });
    // The processor forgot the card: a charge of it is refused.
    await expect(
      runtime.deps.ports.processor.chargeSavedCard(
        { accountId: account.accountId, mode: 'test' },
        { paymentMethodId, amountCents: 100, currency: 'usd', description: 'probe' },
      ),
    ).rejects.toThrow(/saved card/);
    // No top-off after: the balance reaches zero and stays there.
    expect((await deductAll('seller-off@example.com', 1000)).body).toMatchObject({ balanceCents: 0, autoRefill: { attempted: false, succeeded: false } });
    expect(await events(runtime, account, 'credit.auto_refill.succeeded')).toEqual([]);
    expect((await mailsTo('seller-off@example.com')).some((m) => /Automatic top-ups are off/.test(m.subject))).toBe(true);

    // Buyer: the link of the mail opens their balance page, whose form turns top-ups off.
    await buy('buyer-off@example.com');
    const link = linkIn((await mailsTo('buyer-off@example.com')).find((m) => /Automatic top-ups are on/.test(m.subject))!.text)!;
    const json = await fetch(link).then((r) => r.json());
    expect(json).toEqual({
      productName: 'Render minutes',
      balanceCents: 1000,
      currency: 'USD',
      paused: false,
      autoRefill: { enabled: true, topOffCents: 500 },
    });
    const page = await fetch(link, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Automatic top-ups are <strong>on</strong>');
    expect(html).toContain('$10.00');
    expect(html).not.toContain('<script');
    const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
    // A form another site posts is refused; the buyer's own post goes through.
    const forged = await fetch(new URL(action, link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: '',
    });
    expect(forged.status).toBe(403);
    expect((await cardOf('buyer-off@example.com')).autoRefill.enabled).toBe(true);
    const posted = await fetch(new URL(action, link), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-site': 'same-origin' },
      body: '',
    });
    expect(posted.status).toBe(200);
    const after = await posted.text();
    expect(after).toContain('Automatic top-ups are off. Your card will not be charged again.');
    expect(after).toContain('Automatic top-ups are <strong>off</strong>');
    expect((await cardOf('buyer-off@example.com')).autoRefill).toEqual({ enabled: false, paymentMethodId: null });
    await settleWithRetries(runtime);
    const byBuyer = (await events(runtime, account, 'credit.consent.disabled')).filter((e) => e.data.account.email === 'buyer-off@example.com');
    expect(byBuyer.map((e) => e.data.by)).toEqual(['buyer']);
    expect((await deductAll('buyer-off@example.com', 1000)).body).toMatchObject({ balanceCents: 0, autoRefill: { attempted: false } });
    expect(await events(runtime, account, 'credit.auto_refill.succeeded')).toEqual([]);
    expect((await account.test.get('/orders')).body).toHaveLength(2);
    // Unknown links open nothing.
    expect((await fetch(link.replace(/[0-9A-Za-z]{32}$/, 'A'.repeat(32)))).status).toBe(404);
  });
});
