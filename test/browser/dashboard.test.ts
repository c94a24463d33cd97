import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { control, createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { dashboardHost, pageSettled, seriousAxeViolations, signInByMagicLink, type DashboardHost } from '../support/dashboard';
import type { LocalRuntime } from '../../shared/local/runtime';

const SHOTS = 'test/browser/screenshots';
const OWNER = 'owner-dash@example.com';

let runtime: LocalRuntime;
let host: DashboardHost;
let browser: Browser;
let account: TestAccount;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  runtime = await startTestRuntime();
  [host, browser, account] = await Promise.all([dashboardHost(runtime), launchChromium(), createTestAccount(runtime, 'volume', OWNER)]);
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await runtime?.stop();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/dashboard-${name}.png`, fullPage: true });

describe('seller dashboard in a browser', () => {
  it('signs in by magic link, creates a product, sees it bought through the hosted checkout and refunded', { timeout: 60_000 }, async () => {
    await signInByMagicLink(page, runtime, host.origin, OWNER);
    await pageSettled(page);
    expect(await page.locator('main h1').textContent()).toBe('Home');
    await shot('home-live');

    // Test mode: a clear badge, and the records of test mode only.
    await page.getByTestId('mode-switch').getByText('Test').click();
    await page.getByTestId('test-badge').waitFor();

    await page.getByRole('link', { name: 'Products' }).click();
    await pageSettled(page);
    await page.getByTestId('new-product').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Dashboard guide');
    // The API's own reason when it refuses (no price yet).
    await dialog.getByRole('button', { name: 'Create product' }).click();
    await expect(dialog.getByTestId('form-error').textContent()).resolves.toMatch(/price/i);
    await dialog.getByLabel('Price (USD)').fill('19.5');
    await dialog.getByRole('button', { name: 'Create product' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('cell', { name: 'Dashboard guide', exact: true }).waitFor();
    await shot('products');

    const products = (await account.test.get('/products')).body as { _id: string; name: string; testMode: boolean }[];
    const product = products.find((p) => p.name === 'Dashboard guide')!;
    expect(product.testMode).toBe(true);
    expect((await account.live.get('/products')).body).toHaveLength(0);

    // A buyer pays through the hosted checkout of test mode.
    const session = await account.test.post('/checkout/sessions', { productId: product._id, successUrl: `${host.origin}/thanks`, cancelUrl: `${host.origin}/cart` });
    expect(session.status).toBe(201);
    const buyer = await browser.newPage();
    await buyer.goto(session.body.url);
    await buyer.fill('#email', 'buyer-dash@example.com');
    await buyer.fill('#cardNumber', '4242 4242 4242 4242');
    await buyer.fill('#expiry', '12/34');
    await buyer.fill('#cvc', '123');
    await Promise.all([buyer.waitForURL(/\/thanks$/), buyer.click('#pay')]);
    await buyer.close();
    await control(runtime).post('/_local/settle', {});

    await page.getByRole('link', { name: 'Orders' }).click();
    await pageSettled(page);
    await page.getByRole('cell', { name: 'buyer-dash@example.com' }).waitFor();
    const orders = (await account.test.get('/orders')).body as { _id: string }[];
    expect(orders).toHaveLength(1);

    // The API has no refund route: the processor refunds (sandbox control route) and reports it.
    expect((await control(runtime).post(`/_local/sales/${orders[0]!._id}/refund`, {})).status).toBe(200);
    await control(runtime).post('/_local/settle', {});
    await page.getByRole('link', { name: /^\S+ \d/ }).first().click();
    await pageSettled(page);
    await expect(page.getByTestId('sale-status').textContent()).resolves.toMatch(/refunded/);
    await expect(page.getByTestId('refunded-amount').textContent()).resolves.toMatch(/19\.50/);
    await shot('order-refunded');

    // Home figures reflect it: one sale, nothing left of its revenue.
    await page.getByRole('link', { name: 'Home' }).click();
    await pageSettled(page);
    await expect(page.getByTestId('figure-sales').textContent()).resolves.toContain('1');
  });

  it('every commerce and developer page has no serious or critical axe-core violation', { timeout: 60_000 }, async () => {
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').evaluateAll((anchors) => anchors.map((a) => ({ name: a.textContent!.trim(), href: (a as HTMLAnchorElement).pathname })));
    expect(links.length).toBeGreaterThanOrEqual(17);
    const found: Record<string, unknown> = {};
    for (const link of links) {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link.name, exact: true }).click();
      await page.waitForURL(`${host.origin}${link.href}`);
      await pageSettled(page);
      expect(await page.getByTestId('error-state').count(), `${link.href} shows an error`).toBe(0);
      const violations = await seriousAxeViolations(page);
      if (violations.length) found[link.href] = violations;
      await shot(link.href.replace(/^\/dashboard\/?/, '').replace(/\//g, '-') || 'home');
    }
    expect(found).toEqual({});
  });
});
