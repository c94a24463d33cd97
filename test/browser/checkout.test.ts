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
  account = await createTestAccount(runtime, 'volume');
  // The seller's site the buyer returns to.
  shop = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Thanks</title><h1 id="thanks">Thank you (${req.url})</h1>`);
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

describe('sandbox hosted checkout in a browser', () => {
  it('shows a decline, then pays with the test card and lands on successUrl', async () => {
    const product = await createProduct(account, { name: 'Browser guide', price: 12.5 });
    const session = await account.test.post('/checkout/sessions', {
      productId: product._id,
      successUrl: `${shopUrl}/thanks`,
      cancelUrl: `${shopUrl}/cart`,
      clientReferenceId: 'browser-1',
    });
    expect(session.status).toBe(201);
    const page = await browser.newPage();
    await page.goto(session.body.url);
    await expect(page.locator('#price').textContent()).resolves.toContain('$12.50');
    await page.fill('#email', 'browser@example.com');
    await page.fill('#firstName', 'Bea');
    await page.fill('#country', 'FR');
    await page.fill('#cardNumber', '4000 0000 0000 0002');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await page.click('#pay');
    await page.locator('#error').waitFor();
    await expect(page.locator('#error').textContent()).resolves.toContain('declined');
    // The form keeps what the buyer typed.
    expect(await page.inputValue('#email')).toBe('browser@example.com');
    // The card fields are never shown again.
    expect(await page.inputValue('#cardNumber')).toBe('');
    await page.fill('#cardNumber', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/34');
    await page.fill('#cvc', '123');
    await Promise.all([page.waitForURL(/\/processor\/sandbox\/checkout\/cs_\w+\/thanks$/), page.click('#pay')]);
    await Promise.all([page.waitForURL(`${shopUrl}/thanks?session_id=${session.body.id}`), page.click('#continue')]);
    await expect(page.locator('#thanks').textContent()).resolves.toContain('/thanks?session_id=');
    await page.close();

    const completed = (await events(runtime, account, 'order.completed')).filter((e) => e.data.clientReferenceId === 'browser-1');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data.customer).toMatchObject({ email: 'browser@example.com', firstName: 'Bea', country: 'FR' });
    expect(completed[0]!.data.amount).toBe(12.5);
  });
});
