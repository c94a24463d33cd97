import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { pay } from '../support/commerce';
import { axeViolations, navTo, pageSettled, signInByMagicLink } from '../support/dashboard';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

/** Home, orders and settings as a seller uses them (issue 47 items 3 to 5), with after screenshots. */
const AFTER = 'docs/dashboard/after';
const OWNER = 'seller-47@example.com';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

let runtime: LocalRuntime;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: TestAccount;
let productId: string;

const ok = async <T = any>(call: Promise<{ status: number; body: T; text: string }>, label: string): Promise<T> => {
  const res = await call;
  if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.text}`);
  return res.body;
};

async function seed() {
  const api = account.test;
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'cover.png');
  const image = await ok(api.post('/images', form), 'image');
  const product = await ok(api.post('/products', { name: 'Photo presets', price: 29, imageIds: [image._id] }), 'product');
  productId = product._id;
  await ok(api.post('/discounts', { name: 'Launch', code: 'LAUNCH10', valueType: 'percentage', value: 10, mainProductIds: [productId] }), 'discount');
  const buyers = [
    { email: 'marie@example.com', firstName: 'Marie', lastName: 'Curie', country: 'FR', discountCode: 'LAUNCH10' },
    { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', country: 'GB' },
    { email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing', country: 'GB' },
  ];
  for (const { discountCode, ...buyer } of buyers) {
    const session = await ok(
      api.post('/checkout/sessions', {
        productId,
        successUrl: `${runtime.url}/thanks`,
        cancelUrl: `${runtime.url}/cart`,
        ...(discountCode ? { discountCode } : {}),
      }),
      'checkout',
    );
    await pay(runtime, session.id, buyer);
  }
  await ok(api.post('/newsletters/subscribers', { email: 'fan@example.com', name: 'A fan' }), 'subscriber');
  await settleWithRetries(runtime);
}

beforeAll(async () => {
  mkdirSync(AFTER, { recursive: true });
  runtime = await startTestRuntime();
  [browser, account] = await Promise.all([launchChromium(), createTestAccount(runtime, 'volume', OWNER)]);
  await seed();
  // bypassCSP: axe-core is injected by the test (addScriptTag); the app itself loads nothing from elsewhere.
  context = await browser.newContext({
    bypassCSP: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  page = await context.newPage();
  await signInByMagicLink(page, runtime, OWNER);
  await pageSettled(page);
}, 90_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await runtime?.stop();
});

describe('a seller’s Home, orders and settings', () => {
  it('Home: the period picked, compared with the one before, money and counts on their axes, recent activity', { timeout: 60_000 }, async () => {
    // The sales are in test mode and live has none: the store opens in test mode by itself.
    await page.getByTestId('test-badge').waitFor();
    await expect(page.getByTestId('figure-sales').textContent()).resolves.toContain('3');
    expect(await page.getByTestId('figure-sales-change').textContent()).toBe('up from nothing in the previous 30 days');
    // Localized days on the axis ("Nov 27"), not ISO dates; currency on the revenue axis; whole counts.
    const ticks = await page.getByTestId('sales-chart').locator('.recharts-yAxis .recharts-cartesian-axis-tick-value').allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^\d+$/);
    const money = await page.getByTestId('revenue-chart').locator('.recharts-yAxis .recharts-cartesian-axis-tick-value').allTextContents();
    expect(money.every((t) => t.startsWith('$'))).toBe(true);
    const days = await page.getByTestId('sales-chart').locator('.recharts-xAxis .recharts-cartesian-axis-tick-value').allTextContents();
    expect(days.some((d) => /^[A-Z][a-z]{2} \d{1,2}$/.test(d))).toBe(true);
    expect(days.some((d) => /\d{4}-\d{2}-\d{2}/.test(d))).toBe(false);
    // Top products: the one product, its revenue before refunds and its three sales.
    expect(await page.getByTestId('top-products').getByRole('listitem').allTextContents()).toEqual(['Photo presets$84.10 · 3 sales']);
    // Recent activity names the buyer and the product, and the new subscriber.
    const activity = page.getByTestId('recent-activity');
    await activity.getByText('Marie Curie bought Photo presets').waitFor();
    await activity.getByText('A fan subscribed').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/3-home.png`, fullPage: true });

    // Seven days: the same sales, compared with the seven days before.
    await page.getByRole('radiogroup', { name: 'Period' }).getByText('7 days').click();
    // The figures refetch for the new period: wait for the comparison text to change, not for the network to go idle.
    await page
      .getByTestId('figure-sales-change')
      .filter({ hasText: /^up from nothing in the previous 7 days$/ })
      .waitFor();
    // A custom range of yesterday alone: no sales then.
    await page.getByRole('radiogroup', { name: 'Period' }).getByText('Custom').click();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.getByRole('textbox', { name: 'To', exact: true }).fill(yesterday);
    await page.getByRole('textbox', { name: 'From', exact: true }).fill(yesterday);
    await page.getByText('No sales in this period or the one before.').waitFor();
    expect(await page.getByTestId('figure-sales').textContent()).toContain('0');
  });

  it('Orders: what was bought, by whom, from where, with which code; search, CSV, and a phone keeps amount and status', { timeout: 60_000 }, async () => {
    await navTo(page, 'Sales', 'Orders');
    const table = page.getByRole('table', { name: 'Orders' });
    const marie = table.getByRole('row').filter({ hasText: 'Marie Curie' });
    await marie.waitFor();
    const text = await marie.textContent();
    expect(text).toContain('Photo presets');
    expect(text).toContain('France');
    expect(text).toContain('LAUNCH10');
    expect(text).toContain('Paid');
    expect(text).not.toMatch(/one_time|initial|completed/);
    expect(await marie.locator('img').getAttribute('src')).toMatch(/\/images\/file\//);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/4-orders.png` });

    // Search narrows the rows; the export carries every page's matching rows as CSV.
    await page.getByLabel('Search orders').fill('lovelace');
    await expect(table.getByRole('row').count()).resolves.toBe(2);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(download.suggestedFilename()).toBe('orders.csv');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFProduct,Date,Buyer,Country,Discount code,Amount,Refunded,Status');
    expect(csv).toContain('Ada Lovelace <ada@example.com>');
    expect(csv).not.toContain('Marie');
    await page.getByLabel('Search orders').fill('');

    // A phone: the product, the amount and the status stay; the rest folds away.
    await page.setViewportSize({ width: 390, height: 844 });
    const headers = await table.locator('th:visible').allTextContents();
    expect(headers).toEqual(['Product', 'Amount', 'Status']);
    await page.screenshot({ path: `${AFTER}/4-orders-phone.png` });
    await page.setViewportSize({ width: 1280, height: 800 });

    // The order's own page says the same in words.
    await marie.getByRole('link', { name: 'Photo presets' }).click();
    await pageSettled(page);
    const facts = await page.locator('main').textContent();
    expect(facts).toContain('Marie Curie (marie@example.com)');
    expect(facts).toContain('One-time purchase');
    expect(facts).toContain('LAUNCH10');
    await page.screenshot({ path: `${AFTER}/4-order-detail.png`, fullPage: true });
  });

  it('Settings: store details saved, payments and sender status, a buy link copied, reminders on', { timeout: 60_000 }, async () => {
    await navTo(page, 'Settings', 'Store settings');
    await page.getByLabel('Store name').fill('Curie Presets');
    await page.getByLabel('Support email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save store details' }).click();
    await expect(page.getByTestId('form-error').first().textContent()).resolves.toMatch(/supportEmail must be an email address/);
    expect((await account.test.get('/account/branding')).body.displayName).toBeNull();
    await page.getByLabel('Support email').fill('help@curie.example');
    await page.getByLabel('Accent colour').fill('#aa3300');
    await page.getByLabel('Legal name').fill('Curie Presets SARL');
    await page.getByLabel('Legal address').fill('1 rue de la Paix, Paris');
    await page.getByRole('textbox', { name: 'Logo' }).click();
    await page.getByRole('option', { name: 'cover.png' }).click();
    await page.getByRole('textbox', { name: 'Default language for buyers' }).click();
    await page.getByRole('option', { name: 'Français', exact: true }).click();
    await page.getByRole('button', { name: 'Save store details' }).click();
    await page.locator('#store').getByText('Saved.').waitFor();
    const branding = (await account.test.get('/account/branding')).body;
    expect(branding).toMatchObject({
      displayName: 'Curie Presets',
      supportEmail: 'help@curie.example',
      accentColor: '#aa3300',
      legalName: 'Curie Presets SARL',
      legalAddress: '1 rue de la Paix, Paris',
      locale: 'fr',
    });
    expect(branding.logoImageId).toMatch(/^[0-9a-f]{24}$/);
    // Test mode's branding only: live keeps its own.
    expect((await account.live.get('/account/branding')).body.displayName).toBeNull();

    // Payments: the local runtime's simulated processor in both modes, said in words.
    expect(await page.getByTestId('processor-live').textContent()).toContain('Simulated payments');
    await page.getByRole('button', { name: 'Check the connection again' }).click();
    await expect(page.getByTestId('connection-checked').textContent()).resolves.toBe('Live payments are not connected to Stripe yet.');
    expect(await page.getByTestId('sender-status').textContent()).toMatch(/Verified|Not verified/);

    // The buy link, copied.
    const link = page.getByTestId('buy-link').getByRole('textbox');
    const url = await link.inputValue();
    expect(url).toBe(`${runtime.url}/buy/${productId}`);
    await page.getByTestId('buy-link').getByRole('button', { name: 'Copy link' }).click();
    await page.getByTestId('buy-link').getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    // Checkout reminders live here too.
    await page.getByText('Send a reminder to buyers who left a checkout', { exact: true }).click();
    await page.getByLabel('Minutes after the checkout opened').fill('60');
    await page.getByRole('button', { name: 'Save reminders' }).click();
    await page
      .getByText(/^Saved .*\d/)
      .first()
      .waitFor();
    expect((await account.test.get('/checkout/recovery')).body).toMatchObject({ enabled: true, delayMinutes: 60 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/5-settings.png`, fullPage: true });
  });
});
