import { launchChromium } from '../support/browser';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

const SHOTS = join(__dirname, 'screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { viewport: { width: 375, height: 740 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true };

let runtime: LocalRuntime;
let seller: TestAccount;
let browser: Browser;
let context: BrowserContext;
let shop: Server;
let shopUrl: string;

/** axe-core in the page; the pages forbid scripts, so the test context bypasses their CSP for it. */
async function serious(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(
    async () =>
      (await (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run()).violations,
  );
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes.length} nodes)`);
}

const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime, 'volume');
  await seller.test.patch('/account/branding', { displayName: 'Moss & Fern', accentColor: '#2f6f4e', supportEmail: 'help@moss.example' });
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Shop</title><h1 id="shop">Back at the shop (${req.url})</h1>`);
  });
  await new Promise<void>((r) => shop.listen(0, '127.0.0.1', () => r()));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
  context = await browser.newContext({ ...PHONE, bypassCSP: true });
}, 180_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  shop?.close();
  await runtime?.stop();
});

describe('buyer pages in Chromium at phone width', () => {
  it('buys with a discount code: checkout, thank-you page, then successUrl with session_id', { timeout: 240_000 }, async () => {
    const product = await createProduct(seller, {
      name: 'Moss field guide',
      price: 24,
      description: 'Forty illustrated pages on the mosses of northern woods.',
    });
    // The guide is a digital product: its file is offered on the thank-you page.
    const upload = new FormData();
    upload.set('file', new Blob([Buffer.from('%PDF-1.4 moss')], { type: 'application/pdf' }), 'moss-guide.pdf');
    expect((await seller.test.post(`/products/${product._id}/files`, upload)).status).toBe(201);
    await seller.test.post('/discounts', { name: 'Quarter', code: 'QUARTER', valueType: 'percentage', value: 25, mainProductIds: [product._id] });
    const session = await openCheckout(seller, product._id, { successUrl: `${shopUrl}/done`, cancelUrl: `${shopUrl}/cart` });
    const page = await context.newPage();
    await page.goto(session.url);
    await expect(page.locator('header.seller').textContent()).resolves.toContain('Moss & Fern');
    await expect(page.locator('#price').textContent()).resolves.toContain('$24.00');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'checkout.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);

    await page.fill('#discountCode', 'quarter');
    await page.click('#apply');
    await page.locator('#notice').waitFor();
    await expect(page.locator('#notice').textContent()).resolves.toContain('QUARTER applied');
    await expect(page.locator('#price').textContent()).resolves.toContain('$18.00');

    // A missing security code is named at its field, and what was typed stays.
    await page.fill('#email', 'fern@example.com');
    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/34');
    await page.click('#pay');
    await page.locator('#cvc-error').waitFor();
    await expect(page.locator('#cvc-error').textContent()).resolves.toContain('Enter the security code');
    expect(await page.getAttribute('#cvc', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#email')).toBe('fern@example.com');
    await page.screenshot({ path: join(SHOTS, 'checkout-error.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);

    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL(/\/thanks$/), page.click('#pay')]);
    await expect(page.locator('#confirmation').textContent()).resolves.toContain('order is complete');
    await expect(page.locator('#downloads a').textContent()).resolves.toBe('moss-guide.pdf');
    await expect(page.locator('#price').textContent()).resolves.toContain('$18.00');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'thank-you.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);
    await Promise.all([page.waitForURL(`${shopUrl}/done?session_id=${session.id}`), page.click('#continue')]);
    await page.close();
  });

  it('takes the upsell with a discount code, pays the total, and sees an intro price', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Lichen atlas', price: 30 });
    const kit = await createProduct(seller, { name: 'Hand lens', price: 20, description: 'A 10x loupe for the field.' });
    await seller.test.post('/upsells', { mainProductIds: [product._id], upsellProductId: kit._id, upsellPrice: 12 });
    await seller.test.post('/discounts', { name: 'Tenth', code: 'TENTH', valueType: 'percentage', value: 10, mainProductIds: [product._id] });
    const session = await openCheckout(seller, product._id, { successUrl: `${shopUrl}/done`, cancelUrl: `${shopUrl}/cart` });
    const page = await context.newPage();
    await page.goto(session.url);
    await expect(page.locator('#upsell-price').textContent()).resolves.toBe('$12.00');
    await page.click('#upsell-add');
    await page.locator('#upsell-remove').waitFor();
    await expect(page.locator('#total').textContent()).resolves.toBe('$42.00');
    await page.fill('#discountCode', 'tenth');
    await page.click('#apply');
    await page.locator('#notice').waitFor();
    await expect(page.locator('#total').textContent()).resolves.toBe('$39.00');
    await expect(page.locator('#pay').textContent()).resolves.toBe('Pay $39.00');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'checkout-upsell.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);
    await page.fill('#email', 'lichen@example.com');
    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL(/\/thanks$/), page.click('#pay')]);
    await expect(page.locator('#lines').textContent()).resolves.toContain('Hand lens$12.00');
    await expect(page.locator('#total').textContent()).resolves.toBe('$39.00');
    expect(await serious(page)).toEqual([]);
    await settleWithRetries(runtime);
    const order = (await seller.test.get('/orders')).body.find((o: { buyerEmail: string }) => o.buyerEmail === 'lichen@example.com');
    expect(order).toMatchObject({
      amountCents: 3900,
      lines: [
        { productName: 'Lichen atlas', amountCents: 2700 },
        { productName: 'Hand lens', amountCents: 1200 },
      ],
    });

    // Intro pricing (retention, a Pro feature): the schedule of charges, on a subscription checkout.
    const pro = await createTestAccount(runtime, 'tier3');
    const offer = await createOffer(pro, { name: 'Moss club', price: 20, frequency: 'monthly' });
    expect((await pro.test.put(`/subscription-retention/offers/${offer._id}`, { intro: { enabled: true, price: 5, periods: 3 } })).status).toBe(200);
    await page.goto((await openCheckout(pro, offer._id)).url);
    await expect(page.locator('#intro').textContent()).resolves.toBe(
      'Intro price: $5.00 today, then $5.00 / month for the next 2 months, then $20.00 / month.',
    );
    await expect(page.locator('#pay').textContent()).resolves.toContain('$5.00');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'checkout-intro.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);
    await page.close();
  });

  it('the portal page cancels at period end and resumes, with forms and no script', { timeout: 240_000 }, async () => {
    const offer = await createOffer(seller, { name: 'Moss club', price: 9, frequency: 'monthly' });
    const paid = await pay(runtime, (await openCheckout(seller, offer._id)).id, { email: 'club@example.com' });
    await settleWithRetries(runtime);
    const portalUrl = (await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.portalUrl as string;
    const page = await context.newPage();
    await page.goto(portalUrl);
    await expect(page.locator('#status').textContent()).resolves.toBe('Active');
    await expect(page.locator('#next-charge').textContent()).resolves.toContain('$9.00');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'portal.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);

    await Promise.all([page.waitForURL(/done=canceled/), page.click('#cancel')]);
    await expect(page.locator('#notice').textContent()).resolves.toContain('end at the close of the current period');
    await expect(page.locator('#next-charge').textContent()).resolves.toContain('No further charges');
    await page.screenshot({ path: join(SHOTS, 'portal-canceled.png'), fullPage: true });
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.cancelAtPeriodEnd).toBe(true);

    await Promise.all([page.waitForURL(/done=resumed/), page.click('#resume')]);
    await expect(page.locator('#cancel').isVisible()).resolves.toBe(true);
    expect((await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.cancelAtPeriodEnd).toBe(false);

    // Without the token: read-only, and still accessible.
    await page.goto(portalUrl.replace(/\?token=.*/, ''));
    expect(await page.locator('form').count()).toBe(0);
    expect(await serious(page)).toEqual([]);
    await page.close();
  });

  it('a failed renewal recovers after the buyer updates the card from the portal', { timeout: 240_000 }, async () => {
    const offer = await createOffer(seller, { name: 'Fern box', price: 12, frequency: 'monthly' });
    const paid = await pay(runtime, (await openCheckout(seller, offer._id)).id, { email: 'fern-box@example.com' });
    await settleWithRetries(runtime);
    await control(runtime).post(`/_local/subscribers/${paid.subscriberId}/renew`, { outcome: 'fail' });
    await settleWithRetries(runtime);
    const portalUrl = (await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body.portalUrl as string;
    const page = await context.newPage();
    await page.goto(portalUrl);
    await expect(page.locator('#status').textContent()).resolves.toBe('Payment overdue');
    await Promise.all([page.waitForURL(/\/processor\/sandbox\/card-update\/cu_/), page.click('#update-card')]);
    await expect(page.locator('#current-card').textContent()).resolves.toContain('4242');
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'card-update.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);

    // A declining card is refused on the page; nothing changes.
    await page.fill('#cardNumber', '4000 0000 0000 0002');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await page.click('#save-card');
    await page.locator('#error').waitFor();
    await expect(page.locator('#error').textContent()).resolves.toContain('declined');
    expect(await serious(page)).toEqual([]);

    await page.fill('#cardNumber', '5555 5555 5555 4444');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await page.click('#save-card');
    await page.locator('#card-result').waitFor();
    await expect(page.locator('#card-result').textContent()).resolves.toContain('We charged $12.00');
    await page.screenshot({ path: join(SHOTS, 'card-updated.png'), fullPage: true });
    expect(await serious(page)).toEqual([]);
    await settleWithRetries(runtime);
    await Promise.all([page.waitForURL(/portal-data/), page.click('#return')]);
    await expect(page.locator('#status').textContent()).resolves.toBe('Active');
    await expect(page.locator('#payments tbody tr').count()).resolves.toBe(2);
    const detail = (await seller.test.get(`/subscriptions/subscribers/${paid.subscriberId}`)).body;
    expect(detail.status).toBe('active');
    await page.close();
  });
});
