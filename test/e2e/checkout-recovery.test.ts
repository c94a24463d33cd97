import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createProduct, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;
/** The day of the first test's recovered sale (the second test sums from it). */
let recoveredDay: string;

const settle = () => settleWithRetries(runtime);
const mails = async (to: string): Promise<{ subject: string; html: string; text: string }[]> =>
  (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails;
const advanceMinutes = async (minutes: number) => {
  const res = await control(runtime).post('/_local/clock/advance', { seconds: minutes * 60 });
  expect(res.status, res.text).toBe(200);
  await settle();
};
const linkIn = (text: string) => /(https?:\/\/\S+\/checkout\/recover\/[0-9A-Za-z]{40})/.exec(text)?.[1];
let n = 0;
const buyer = (tag: string) => `${tag}-${Date.now()}-${n++}@example.com`;
const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'volume');
  other = await createTestAccount(runtime, 'volume');
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('abandoned checkouts', () => {
  it('settings: validated, per account and mode, off by default', { timeout: 120_000 }, async () => {
    expect((await seller.test.get('/checkout/recovery')).body).toEqual({ enabled: false, delayMinutes: 60, discountCode: null, updatedAt: null });
    for (const [body, reason] of [
      [{ enabled: true, delayMinutes: 10 }, 'at least 30 minutes'],
      [{ enabled: true, delayMinutes: 3000 }, 'at most 2880 minutes'],
      [{ enabled: true, delayMinutes: 45.5 }, 'whole number'],
      [{ enabled: 'yes', delayMinutes: 60 }, 'enabled'],
      [{ enabled: true, delayMinutes: 60, discountCode: 'NOSUCH' }, 'no discount code NOSUCH'],
    ] as const) {
      const res = await seller.test.put('/checkout/recovery', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toContain(reason);
    }
    expect((await seller.test.get('/checkout/recovery')).body.enabled).toBe(false);
    const product = await createProduct(seller, { name: 'Code target', price: 10 });
    await seller.test.post('/discounts', { name: 'Come back', code: 'BACK20', valueType: 'percentage', value: 20, mainProductIds: [product._id] });
    const saved = await seller.test.put('/checkout/recovery', { enabled: true, delayMinutes: 60, discountCode: 'back20' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ enabled: true, delayMinutes: 60, discountCode: 'BACK20' });
    // Another mode and another account keep their own settings.
    expect((await seller.live.get('/checkout/recovery')).body.enabled).toBe(false);
    expect((await other.test.get('/checkout/recovery')).body.enabled).toBe(false);
    expect((await seller.test.put('/checkout/recovery', { enabled: true, delayMinutes: 60 })).body.discountCode).toBeNull();
  });

  it("mails once after the delay, in the buyer's language, with a link back that opens a payable checkout; a purchase through it is marked recovered", {
    timeout: 240_000,
  }, async () => {
    const product = await createProduct(seller, { name: 'Moss atlas', price: 40 });
    await seller.test.post('/discounts', { name: 'Atlas back', code: 'ATLAS10', valueType: 'percentage', value: 10, mainProductIds: [product._id] });
    expect((await seller.test.put('/checkout/recovery', { enabled: true, delayMinutes: 45, discountCode: 'ATLAS10' })).status).toBe(200);
    await seller.test.patch('/account/branding', { displayName: 'Moss & Co' });

    // The address is typed on the hosted page (a code tried), which is read in French.
    const leaver = buyer('leaver');
    const session = await openCheckout(seller, product._id, { metadata: { campaign: 'spring' } });
    const typed = await fetch(session.url, {
      method: 'POST',
      body: form({ intent: 'discount', discountCode: 'NOPE', email: leaver }),
      headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(typed.status).toBe(400);
    expect(await typed.text()).toContain('Ce code de réduction n’existe pas');

    // The buyer given at creation prefills the page.
    const prefilled = buyer('prefilled');
    const known = await openCheckout(seller, product._id, { customerEmail: prefilled });
    expect(await (await fetch(known.url)).text()).toContain(`value="${prefilled}"`);
    expect(
      (
        await seller.test.post('/checkout/sessions', {
          productId: product._id,
          successUrl: 'https://a.example/s',
          cancelUrl: 'https://a.example/c',
          customerEmail: 'nope',
        })
      ).status,
    ).toBe(400);

    await advanceMinutes(40);
    expect(await mails(leaver)).toHaveLength(0);
    await advanceMinutes(10);
    const received = await mails(leaver);
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.subject).toBe('Vous avez laissé Moss atlas dans votre panier');
    expect(mail.text).toContain('ATLAS10');
    expect(mail.html).toContain('Moss &amp; Co');
    expect(await mails(prefilled)).toHaveLength(1);
    expect((await mails(prefilled))[0]!.subject).toBe('You left Moss atlas in your cart');

    const abandoned = (await events(runtime, seller, 'checkout.abandoned')).filter((e) => e.data.customer.email === leaver);
    expect(abandoned).toHaveLength(1);
    expect(abandoned[0]!.data).toMatchObject({
      checkoutSessionId: session.id,
      product: { id: product._id, name: 'Moss atlas' },
      emailSent: true,
      discountCode: 'ATLAS10',
      metadata: { campaign: 'spring' },
    });

    // Once: more time passes, no second mail.
    await advanceMinutes(24 * 60);
    expect(await mails(leaver)).toHaveLength(1);

    // The link opens a payable checkout with the code applied (a fresh session: the old one was at full price).
    const link = linkIn(mail.text)!;
    expect(link).toBeTruthy();
    const back = await fetch(link, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const page = back.headers.get('location')!;
    expect(page).not.toBe(session.url);
    const pageHtml = await (await fetch(page)).text();
    expect(pageHtml).toContain('<html lang="fr">');
    expect(pageHtml).toContain('36,00');
    expect(pageHtml).toContain(`value="${leaver}"`);
    const paid = await fetch(page, { method: 'POST', body: form({ intent: 'pay', email: leaver, ...CARD }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    const orders = (await events(runtime, seller, 'order.completed')).filter((e) => e.data.customer.email === leaver);
    expect(orders).toHaveLength(1);
    expect(orders[0]!.data.metadata).toEqual({ campaign: 'spring', recovered: true, recoveredFrom: session.id });
    expect(orders[0]!.data.amount).toBe(36);
    // The analytics summary counts it as recovered, apart from the gross it is part of.
    recoveredDay = new Date(orders[0]!.created * 1000).toISOString().slice(0, 10);
    const summary = (await seller.test.get(`/analytics/summary?from=${recoveredDay}&to=${recoveredDay}`)).body;
    expect(summary.totals).toMatchObject({ grossCents: 3600, sales: 1, recoveredCents: 3600, recoveredSales: 1 });
    expect(summary.days[0]).toMatchObject({ date: recoveredDay, recoveredCents: 3600, recoveredSales: 1 });
    expect((await seller.live.get(`/analytics/summary?from=${recoveredDay}&to=${recoveredDay}`)).body.totals).toMatchObject({
      recoveredCents: 0,
      recoveredSales: 0,
    });
    // Its receipt is in French too: the buyer's language was saved at checkout.
    const receipt = (await mails(leaver)).find((m) => m.subject.startsWith('Votre reçu'));
    expect(receipt?.subject).toMatch(/^Votre reçu de Moss & Co : 36,00\s\$US$/);
    expect(receipt?.text).toContain('Merci pour votre commande');

    // A wrong token is a page saying the link no longer works.
    const gone = await fetch(link.replace(/.{5}$/, 'AAAAA'), { headers: { 'accept-language': 'de' } });
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('Dieser Link funktioniert nicht mehr');
  });

  it('no mail for a buyer who paid, bought through another session, is suppressed, or when recovery is off', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Lichen cards', price: 12 });
    expect((await seller.test.put('/checkout/recovery', { enabled: true, delayMinutes: 30 })).status).toBe(200);

    const payer = buyer('payer');
    const paidSession = await openCheckout(seller, product._id, { customerEmail: payer });
    await pay(runtime, paidSession.id, { email: payer });

    const twice = buyer('twice');
    const first = await openCheckout(seller, product._id, { customerEmail: twice });
    const second = await openCheckout(seller, product._id, { customerEmail: twice });
    await pay(runtime, second.id, { email: twice });

    const suppressed = buyer('suppressed');
    expect(
      (await control(runtime).post('/_local/emails/events', { email: suppressed, type: 'complaint', accountId: seller.accountId, mode: 'test' })).status,
    ).toBe(200);
    const suppressedSession = await openCheckout(seller, product._id, { customerEmail: suppressed });

    // Declined card: the address is known from the page and the checkout stays unpaid.
    const declined = buyer('declined');
    const declinedSession = await openCheckout(seller, product._id);
    const refused = await fetch(declinedSession.url, {
      method: 'POST',
      body: form({ intent: 'pay', email: declined, cardNumber: '4000 0000 0000 0002', expiry: '12/34', cvc: '123' }),
      headers: { 'accept-language': 'es' },
    });
    expect(refused.status).toBe(402);
    expect(await refused.text()).toContain('Su tarjeta ha sido rechazada');

    // A buy link's ?email= is the same customerEmail: it prefills the page and the checkout is mailed.
    const linked = buyer('linked');
    const opened = await fetch(`${runtime.url}/buy/${product._id}?email=${encodeURIComponent(linked)}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(await (await fetch(opened.headers.get('location')!)).text()).toContain(`value="${linked}"`);

    const lateOff = buyer('off');
    await openCheckout(seller, product._id, { customerEmail: lateOff });
    const otherBuyer = buyer('other-account');
    const otherProduct = await createProduct(other, { name: 'Not mine', price: 5 });
    await openCheckout(other, otherProduct._id, { customerEmail: otherBuyer });

    await advanceMinutes(31);
    expect(await mails(payer), 'paid').toHaveLength(1); // the receipt only
    expect((await mails(payer))[0]!.subject).toMatch(/^Your receipt/);
    expect(
      (await mails(twice)).filter((m) => m.subject.includes('cart')),
      'bought through another session',
    ).toHaveLength(0);
    expect(await mails(suppressed), 'suppressed').toHaveLength(0);
    expect((await mails(declined)).map((m) => m.subject)).toEqual(['Ha dejado Lichen cards en su carrito']);
    expect(await mails(otherBuyer), 'another account with recovery off').toHaveLength(0);
    expect(
      (await mails(linked)).map((m) => m.subject),
      'opened by a buy link',
    ).toEqual(['You left Lichen cards in your cart']);
    // No code: the link reopens the same (recent, open) session, and paying it counts as recovered.
    const again = await fetch(linkIn((await mails(declined))[0]!.text)!, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe(declinedSession.url);
    expect((await fetch(declinedSession.url, { method: 'POST', body: form({ intent: 'pay', email: declined, ...CARD }), redirect: 'manual' })).status).toBe(
      303,
    );
    const recovered = (await events(runtime, seller, 'order.completed')).filter((e) => e.data.customer.email === declined);
    expect(recovered.map((e) => e.data.metadata)).toEqual([{ recovered: true, recoveredFrom: declinedSession.id }]);
    // Only the sales through a mail's link count as recovered: the payer's and the second session's do not.
    const lastDay = new Date(recovered[0]!.created * 1000).toISOString().slice(0, 10);
    const totals = (await seller.test.get(`/analytics/summary?from=${recoveredDay}&to=${lastDay}`)).body.totals;
    expect(totals).toMatchObject({ grossCents: 3600 + 3 * 1200, sales: 4, recoveredCents: 3600 + 1200, recoveredSales: 2 });

    const abandoned = await events(runtime, seller, 'checkout.abandoned');
    const about = (email: string) => abandoned.filter((e) => e.data.customer.email === email);
    expect(about(payer)).toHaveLength(0);
    expect(about(twice)).toHaveLength(0);
    expect(about(suppressed).map((e) => e.data.emailSent)).toEqual([false]);
    expect(about(suppressed)[0]!.data.checkoutSessionId).toBe(suppressedSession.id);
    expect(first.id).not.toBe(second.id);

    // Recovery turned off before a timer fires: nothing.
    const late = buyer('late');
    await openCheckout(seller, product._id, { customerEmail: late });
    expect((await seller.test.put('/checkout/recovery', { enabled: false, delayMinutes: 30 })).status).toBe(200);
    await advanceMinutes(31);
    expect(await mails(late)).toHaveLength(0);
    expect(about(late)).toHaveLength(0);
    expect((await events(runtime, seller, 'checkout.abandoned')).filter((e) => e.data.customer.email === late)).toHaveLength(0);
  });
});
