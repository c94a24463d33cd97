import { launchChromium } from '../support/browser';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { createProduct, events } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let account: TestAccount;
let browser: Browser;
let shop: Server;
let shopUrl: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  account = await createTestAccount(runtime, 'tier3');
  // The seller's site: its product page is where the tracked link lands, its thank-you page where checkout returns.
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Shop</title><h1 id="landed">${req.url}</h1>`);
  });
  await new Promise<void>((r) => shop.listen(0, '127.0.0.1', () => r()));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  shop?.close();
  await runtime?.stop();
});

describe('tracked link to purchase to survey answer, in a browser', () => {
  it('follows the link, buys on the hosted checkout, answers the survey without JavaScript, and the report shows both', async () => {
    const product = await createProduct(account, { name: 'Browser course', price: 30 });
    await account.test.put('/attribution-survey/settings', {
      enabled: true,
      question: 'Where did you find us?',
      options: [
        { label: 'YouTube', channel: 'youtube' },
        { label: 'Newsletter', channel: 'email' },
      ],
      allowOther: true,
    });
    const link = (await account.test.post('/links', { channel: 'youtube', targetUrl: `${shopUrl}/course`, name: 'YT description' })).body;

    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => m.text().includes('Content Security Policy') && violations.push(m.text()));

    await page.goto(link.url);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/course');
    const tl = landed.searchParams.get('tl');
    expect(tl).toBe(link.code);
    expect((await context.cookies(link.url)).some((c) => c.name === 'tlv' && c.httpOnly)).toBe(true);

    // The shop's server opens the checkout with the code it received.
    const session = await account.test.post('/checkout/sessions', {
      productId: product._id,
      successUrl: `${shopUrl}/thanks`,
      cancelUrl: `${shopUrl}/cart`,
      clientReferenceId: 'survey-browser',
      metadata: { trackedLink: tl },
    });
    expect(session.status).toBe(201);
    await page.goto(session.body.url);
    await page.fill('#email', 'viewer@example.com');
    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL(/\/processor\/sandbox\/checkout\/cs_\w+\/thanks$/), page.click('#pay')]);
    await Promise.all([page.waitForURL(`${shopUrl}/thanks?session_id=${session.body.id}`), page.click('#continue')]);

    const completed = (await events(runtime, account, 'order.completed')).find((e) => e.data.clientReferenceId === 'survey-browser')!;
    const order = await account.test.get(`/orders/${completed.data.order.id}`);
    const token = String(order.body.reviewPath).split('/').pop();

    await page.goto(`${runtime.url}/survey/${token}`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Where did you find us?');
    // Choosing "somewhere else" without saying where shows the reason and keeps the choice.
    await page.check('input[value="other"]');
    await page.click('#submit');
    await expect(page.locator('#error').textContent()).resolves.toContain('Tell us');
    expect(await page.isChecked('input[value="other"]')).toBe(true);
    await page.fill('#otherText', 'A podcast');
    await page.click('#submit');
    await expect(page.locator('#thanks').textContent()).resolves.toContain('Thank you');
    // Back and again: answered once.
    await page.goto(`${runtime.url}/survey/${token}`);
    await expect(page.locator('#already').isVisible()).resolves.toBe(true);
    expect(violations).toEqual([]);
    await context.close();

    const report = await account.test.get('/attribution-survey/report');
    expect(report.body.totals).toEqual({ shown: 1, answered: 1, responseRate: 100, revenue: 30 });
    expect(report.body.other).toEqual({ answers: 1, share: 100, revenue: 30, topAnswers: [{ answer: 'a podcast', count: 1 }] });
    expect(report.body.trackedLinks.channels).toEqual([{ channel: 'youtube', clicks: 1, visitors: 1, sales: 1, revenue: 30 }]);
  });
});
