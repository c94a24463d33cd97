import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { sentMails } from '../support/local';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const settle = () => settleWithRetries(runtime);
const linkAfter = (text: string, label: string) => new RegExp(`${label}: (\\S+)`).exec(text)?.[1];
const HTML = { accept: 'text/html,application/xhtml+xml' };

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'volume');
  other = await createTestAccount(runtime, 'volume');
}, 120_000);
afterAll(async () => {
  await runtime?.stop();
});

describe('what the buyer sees', () => {
  it('branding: validated, per account and mode, shown on the hosted checkout under a strict CSP', { timeout: 240_000 }, async () => {
    expect((await seller.test.get('/account/branding')).body).toEqual({
      displayName: null,
      logoImageId: null,
      accentColor: null,
      supportEmail: null,
      locale: null,
      legalName: null,
      legalAddress: null,
      taxId: null,
      updatedAt: null,
    });
    const badColour = await seller.test.patch('/account/branding', { displayName: 'Nope', accentColor: 'blue' });
    expect(badColour.status).toBe(400);
    expect(badColour.text).toContain('accentColor is a #rrggbb colour');
    const missingLogo = await seller.test.patch('/account/branding', { logoImageId: 'a'.repeat(24) });
    expect(missingLogo.status).toBe(400);
    expect((await seller.test.patch('/account/branding', {})).status).toBe(400);
    expect((await seller.test.get('/account/branding')).body.displayName).toBeNull();

    const form = new FormData();
    form.set('image', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    const logo = (await seller.test.post('/images', form)).body;
    // Another account's image is not this account's logo.
    expect((await other.test.patch('/account/branding', { logoImageId: logo._id })).status).toBe(400);
    const saved = await seller.test.patch('/account/branding', {
      displayName: 'Ada Studio',
      logoImageId: logo._id,
      accentColor: '#0A7F5A',
      supportEmail: 'help@ada.example',
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ displayName: 'Ada Studio', accentColor: '#0a7f5a', supportEmail: 'help@ada.example' });
    expect((await seller.live.get('/account/branding')).body.displayName).toBeNull();
    expect((await other.test.get('/account/branding')).body.displayName).toBeNull();

    const product = await createProduct(seller, { name: 'Field guide', price: 20, description: 'Forty pages on mosses.' });
    const session = await openCheckout(seller, product._id);
    const page = await fetch(session.url);
    const html = await page.text();
    expect(html).toContain('Ada Studio');
    expect(html).toContain(logo.url);
    expect(html).toContain('Forty pages on mosses.');
    expect(html).toContain('$20.00');
    expect(html).toContain('id="test-cards"');
    expect(html).not.toContain('<script');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'; img-src 'self'.*; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('a discount code on the page, errors by field, the thank-you page, and a receipt with working links', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, { name: 'Seed pack', price: 30 });
    await seller.test.post('/discounts', { name: 'Third off', code: 'THIRD', valueType: 'percentage', value: 30, mainProductIds: [product._id] });
    const session = await openCheckout(seller, product._id, { successUrl: 'https://shop.example.com/done?from=page' });
    const post = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return fetch(session.url, { method: 'POST', body: f, redirect: 'manual' });
    };
    const unknown = await post({ intent: 'discount', discountCode: 'NOPE', email: 'kept@example.com' });
    expect(unknown.status).toBe(400);
    const unknownHtml = await unknown.text();
    expect(unknownHtml).toContain('This discount code does not exist');
    expect(unknownHtml).toContain('value="kept@example.com"');
    const applied = await post({ intent: 'discount', discountCode: 'third' });
    expect(applied.status).toBe(200);
    const appliedHtml = await applied.text();
    expect(appliedHtml).toContain('$21.00');
    expect(appliedHtml).toContain('you save $9.00');

    const invalid = await post({ intent: 'pay', email: 'not-an-email', cardNumber: '4242', expiry: '01/20', cvc: '' });
    expect(invalid.status).toBe(400);
    const invalidHtml = await invalid.text();
    for (const message of ['Enter a valid email address', 'The card number is 12 to 19 digits', 'This card has expired', 'Enter the security code'])
      expect(invalidHtml).toContain(message);
    expect(invalidHtml).toContain('aria-invalid="true"');

    const buyer = `receipt-${Date.now()}@example.com`;
    const paid = await post({ intent: 'pay', email: buyer, firstName: 'Rae', cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
    expect(paid.status).toBe(303);
    const thanks = await (await fetch(new URL(paid.headers.get('location')!, session.url))).text();
    expect(thanks).toContain('Seed pack');
    expect(thanks).toContain(`https://shop.example.com/done?from=page&amp;session_id=${session.id}`);

    await settle();
    const received = await sentMails(runtime, buyer);
    expect(received).toHaveLength(1);
    const receipt = received[0]!;
    expect(receipt.subject).toBe('Your receipt from Ada Studio: $21.00');
    expect(receipt.text).toContain('Discount THIRD: -$9.00');
    expect(receipt.text).toContain('Total paid: $21.00');
    // Every web link in the mail works (tracked links redirect to a live target).
    for (const href of [...receipt.html.matchAll(/href="(https?:[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))) {
      expect((await fetch(href)).status, href).toBeLessThan(400);
    }
  });

  it('a renewal receipt and a failed-payment mail carry the portal, whose page manages the subscription with CSRF-checked forms', {
    timeout: 240_000,
  }, async () => {
    const offer = await createOffer(seller, { name: 'Moss club', price: 10, frequency: 'monthly' });
    const buyer = `renew-${Date.now()}@example.com`;
    const paid = await pay(runtime, (await openCheckout(seller, offer._id)).id, { email: buyer });
    await settle();
    await control(runtime).post(`/_local/subscribers/${paid.subscriberId}/renew`, { outcome: 'succeed' });
    await settle();
    const receipts = (await sentMails(runtime, buyer)).filter((m) => m.subject.startsWith('Your receipt'));
    expect(receipts).toHaveLength(2);
    const renewal = receipts.find((m) => m.text.includes('Renewal of Moss club'))!;
    expect(renewal.subject).toBe('Your receipt from Ada Studio: $10.00');
    const portalUrl = linkAfter(renewal.text, 'Manage your subscription')!;
    // The HTML button is a tracked link that lands on the same portal.
    const tracked = [...renewal.html.matchAll(/href="([^"]+\/email\/click\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect((await fetch(tracked[0]!, { redirect: 'manual' })).headers.get('location')).toBe(portalUrl);
    expect(portalUrl).toContain(`/subscriptions/sub/portal-data/${offer._id}/${paid.subscriberId}?token=`);

    // The same address answers JSON to API clients and the page to browsers.
    expect((await (await fetch(portalUrl)).json()).canManage).toBe(true);
    const page = await fetch(portalUrl, { headers: HTML });
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('Moss club');
    expect(html).toContain('id="cancel"');
    expect((html.match(/<tr><td>/g) ?? []).length).toBe(2);
    // Read-only without the token: status and history, no forms.
    const readOnly = await (await fetch(portalUrl.replace(/\?token=.*/, ''), { headers: HTML })).text();
    expect(readOnly).toContain('id="read-only"');
    expect(readOnly).not.toContain('<form');

    const formAction = /action="([^"]+)"/.exec(html)![1]!;
    const token = new URL(portalUrl).searchParams.get('token')!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
    const submit = (body: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(new URL(formAction, portalUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(body),
      });
    expect((await submit({ action: 'cancel', token })).status).toBe(403);
    expect((await submit({ action: 'cancel', token, csrf }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.cancelAtPeriodEnd).toBe(false);
    const done = await submit({ action: 'cancel', token, csrf });
    expect(done.status).toBe(303);
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.cancelAtPeriodEnd).toBe(true);
    expect(await (await fetch(new URL(done.headers.get('location')!, portalUrl), { headers: HTML })).text()).toContain('id="resume"');
    expect((await submit({ action: 'resume', token, csrf })).status).toBe(303);
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.cancelAtPeriodEnd).toBe(false);

    await control(runtime).post(`/_local/subscribers/${paid.subscriberId}/renew`, { outcome: 'fail' });
    await settle();
    const failed = (await sentMails(runtime, buyer)).filter((m) => m.subject.startsWith('Action needed'));
    expect(failed).toHaveLength(1);
    expect(linkAfter(failed[0]!.text, 'Manage your subscription')).toBe(portalUrl);
    const cardUrl = linkAfter(failed[0]!.text, 'Update your card')!;
    expect(cardUrl).toBe(portalUrl.replace('/portal-data/', '/portal-card/'));

    // The card link opens a fresh sandbox card-update page, without a referrer; the token is required.
    const opened = await fetch(cardUrl, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('referrer-policy')).toBe('no-referrer');
    const updateUrl = opened.headers.get('location')!;
    expect(updateUrl).toMatch(/\/processor\/sandbox\/card-update\/cu_[0-9A-Za-z]{32}$/);
    expect((await fetch(cardUrl.replace(/\?token=.*/, ''), { redirect: 'manual' })).status).toBe(404);
    expect((await fetch(cardUrl.replace(/token=[^&]+/, 'token=wrong'), { redirect: 'manual' })).status).toBe(404);
    const updatePage = await fetch(new URL(updateUrl, portalUrl), { headers: HTML });
    expect(updatePage.status).toBe(200);
    expect(updatePage.headers.get('content-security-policy')).toContain("default-src 'none'");
    const updateHtml = await updatePage.text();
    expect(updateHtml).toContain('id="overdue"');
    // The way back is the read-only portal: the token is not handed to the processor.
    expect(updateHtml).toContain(`href="${portalUrl.replace(/\?token=.*/, '')}"`);
    const saveCard = (card: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ cardNumber: card, expiry: '12/34', cvc: '123' })) form.set(k, v);
      return fetch(new URL(updateUrl, portalUrl), { method: 'POST', body: form });
    };
    const declined = await saveCard('4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('This card was declined');
    const saved = await saveCard('4242 4242 4242 4242');
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('We charged $10.00');
    await settle();
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.status).toBe('active');
    // Used once: the same page is now gone.
    expect((await saveCard('4242 4242 4242 4242')).status).toBe(410);
  });

  it('the upsell on the hosted page is charged with the product: one payment, two lines in the order and the receipt', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Herb guide', price: 40 });
    const extra = await createProduct(seller, { name: 'Pressing kit', price: 25, description: 'Boards and blotting paper.' });
    const foreignExtra = await createProduct(other, { name: 'Other kit', price: 5 });
    // Another account's upsell naming this product id never shows here.
    expect(
      (
        await other.test.post('/upsells', {
          mainProductIds: [foreignExtra._id],
          upsellProductId: (await createProduct(other, { name: 'X', price: 3 }))._id,
          upsellPrice: 1,
        })
      ).status,
    ).toBe(201);
    expect((await seller.test.post('/upsells', { mainProductIds: [product._id], upsellProductId: extra._id, upsellPrice: 15 })).status).toBe(201);
    await seller.test.post('/discounts', { name: 'Quarter', code: 'HERB25', valueType: 'percentage', value: 25, mainProductIds: [product._id] });
    const session = await openCheckout(seller, product._id);
    const post = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return fetch(session.url, { method: 'POST', body: f, redirect: 'manual' });
    };
    const shown = await (await fetch(session.url)).text();
    expect(shown).toContain('id="upsell-add"');
    expect(shown).toMatch(/Pressing kit<\/strong>: <span id="upsell-price">\$15\.00<\/span>/);
    expect(shown).toContain('Boards and blotting paper.');
    expect(shown).not.toContain('Other kit');

    const added = await post({ intent: 'upsell-add', email: 'kept@example.com' });
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    expect(addedHtml).toContain('Pressing kit was added to your order.');
    expect(addedHtml).toContain('<td id="total">$55.00</td>');
    expect(addedHtml).toContain('value="kept@example.com"');
    // The code applies to the product only; the upsell keeps its price on top.
    const coded = await (await post({ intent: 'discount', discountCode: 'herb25' })).text();
    expect(coded).toContain('<td id="total">$45.00</td>');
    expect(coded).toContain('you save $10.00');
    expect(coded).toContain('Pay $45.00');
    // Removed and added again: the total follows.
    expect(await (await post({ intent: 'upsell-remove' })).text()).toContain('Pay $30.00');
    expect(await (await post({ intent: 'upsell-add' })).text()).toContain('Pay $45.00');

    const buyer = `upsell-${Date.now()}@example.com`;
    const paid = await post({ intent: 'pay', email: buyer, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' });
    expect(paid.status).toBe(303);
    const thanks = await (await fetch(new URL(paid.headers.get('location')!, session.url))).text();
    expect(thanks).toContain('<td id="total">$45.00</td>');
    expect(thanks).not.toContain('id="upsell-add"');
    await settle();
    const order = (await seller.test.get('/orders')).body.find((o: { buyerEmail: string }) => o.buyerEmail === buyer);
    expect(order).toMatchObject({ amountCents: 4500, productId: product._id, discountCode: 'HERB25' });
    expect(order.lines).toEqual([
      { productId: product._id, productName: 'Herb guide', amount: 30, amountCents: 3000, upsellId: null },
      { productId: extra._id, productName: 'Pressing kit', amount: 15, amountCents: 1500, upsellId: expect.any(String) },
    ]);
    // The processor's own payment: one charge of the whole total.
    const payment = await seller.test.get(`/payments/${order._id}?live=true`);
    expect(payment.status, payment.text).toBe(200);
    expect(payment.body.lines).toHaveLength(2);
    expect(payment.body.processorLive).toMatchObject({ id: order.paymentIntentId, status: 'succeeded' });
    expect(payment.body.processorLive.amountCents).toBe(4500);
    const receipt = (await sentMails(runtime, buyer)).find((m) => m.subject.startsWith('Your receipt'))!;
    expect(receipt.subject).toMatch(/^Your receipt from .+: \$45\.00$/);
    for (const line of ['Discount HERB25: -$10.00', 'Herb guide: $30.00', 'Pressing kit: $15.00', 'Total paid: $45.00']) expect(receipt.text).toContain(line);
    // A paid checkout takes no more changes.
    expect((await post({ intent: 'upsell-remove' })).status).toBe(303);
  });

  it('an offer with intro pricing shows what is charged today, for the intro renewals, and after; a code does not stack with it', {
    timeout: 60_000,
  }, async () => {
    const pro = await createTestAccount(runtime, 'tier3');
    const offer = await createOffer(pro, { name: 'Herb club', price: 20, frequency: 'monthly' });
    const before = await (await fetch((await openCheckout(pro, offer._id)).url)).text();
    expect(before).not.toContain('id="intro"');
    expect((await pro.test.put(`/subscription-retention/offers/${offer._id}`, { intro: { enabled: true, price: 5, periods: 3 } })).status).toBe(200);
    const html = await (await fetch((await openCheckout(pro, offer._id)).url)).text();
    // The intro counts from the first charge: today's is one of its three.
    expect(html).toContain('<strong>Intro price:</strong> $5.00 today, then $5.00 / month for the next 2 months, then $20.00 / month.');
    expect(html).toContain('Pay $5.00');
    // A discount code does not stack with an intro price: a clear 400, nothing opened.
    const code = await pro.test.post('/discounts', { name: 'Tenth off', code: 'HERB10', valueType: 'percentage', value: 10, mainProductIds: [offer._id] });
    expect(code.status, code.text).toBe(201);
    const withCode = await pro.test.post('/checkout/sessions', {
      productId: offer._id,
      discountCode: 'HERB10',
      successUrl: 'https://shop.example.com/ok',
      cancelUrl: 'https://shop.example.com/no',
    });
    expect(withCode.status, withCode.text).toBe(400);
    expect(withCode.body).toMatchObject({ field: 'discountCode' });
    // Another account's checkout of an offer without intro shows none.
    expect(
      await (await fetch((await openCheckout(seller, (await createOffer(seller, { name: 'Plain', price: 20, frequency: 'monthly' }))._id)).url)).text(),
    ).not.toContain('id="intro"');
  });
});
