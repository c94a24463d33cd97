import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { navTo, pageSettled, signInByMagicLink } from '../support/dashboard';
import type { LocalRuntime } from '../../shared/local/runtime';

const SHOTS = 'test/browser/screenshots';
const OWNER = 'owner-files@example.com';

let runtime: LocalRuntime;
let browser: Browser;
let account: TestAccount;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  runtime = await startTestRuntime();
  [browser, account] = await Promise.all([launchChromium(), createTestAccount(runtime, 'volume', OWNER)]);
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('selling a digital product, in a browser', () => {
  it('the seller uploads a file in the dashboard; a buyer opens the buy link, pays and downloads it from the thank-you page', {
    timeout: 120_000,
  }, async () => {
    const created = (await account.test.post('/products', { name: 'Fern sketches', price: 9, licenseKeys: { enabled: true, activationLimit: 1 } })).body as {
      _id: string;
    };
    const read = (await account.test.get(`/products/${created._id}`)).body as { _id: string; buyPath: string };
    expect(read.buyPath).toBe(`/buy/${created._id}`);
    const product = { ...read, buyUrl: `${runtime.url}${read.buyPath}` };
    await signInByMagicLink(page, runtime, OWNER);
    await pageSettled(page);
    await page.getByTestId('mode-switch').getByText('Test').click();
    await page.getByTestId('test-badge').waitFor();
    await navTo(page, 'Products', 'Products');

    // The table shows the buy link with a copy button.
    await expect(page.getByTestId('buy-link').first().inputValue()).resolves.toBe(product.buyUrl);

    // Upload in the files dialog: the API answers 201 and the list shows the file.
    const bytes = Buffer.from(`%PDF-1.4 ${'fern '.repeat(20_000)}`);
    await page.getByRole('button', { name: 'Files of Fern sketches' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'fern-sketches.pdf', mimeType: 'application/pdf', buffer: bytes });
    await dialog.getByTestId('upload-file').click();
    await dialog.getByTestId('file-name').filter({ hasText: 'fern-sketches.pdf' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/dashboard-product-files.png` });
    // A refused file shows the API's reason.
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await dialog.getByTestId('upload-file').click();
    await expect(dialog.getByTestId('form-error').textContent()).resolves.toContain('not allowed');
    // A file over 4 MB goes in parts straight to the file store (signed part URLs), and arrives whole.
    const large = Buffer.alloc(9 * 1024 * 1024 + 123, 7);
    large.write('%PDF-1.4 ', 0);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'fern-large.pdf', mimeType: 'application/pdf', buffer: large });
    await dialog.getByTestId('upload-file').click();
    await dialog.getByTestId('file-name').filter({ hasText: 'fern-large.pdf' }).waitFor({ timeout: 60_000 });
    const listed = (await account.test.get(`/products/${created._id}/files`)).body as
      | { data?: { name: string; size: number }[] }
      | { name: string; size: number }[];
    const stored = (Array.isArray(listed) ? listed : (listed.data ?? [])).find((f) => f.name === 'fern-large.pdf');
    expect(stored?.size).toBe(large.length);
    await page.keyboard.press('Escape');

    // The buyer: buy link, hosted checkout, thank-you page, download.
    const buyer = await browser.newPage({ acceptDownloads: true });
    await buyer.goto(product.buyUrl);
    await buyer.waitForURL(/\/processor\/sandbox\/checkout\//);
    await buyer.fill('#email', 'fern-buyer@example.com');
    await buyer.fill('#cardNumber', '4242 4242 4242 4242');
    await buyer.fill('#expiry', '12/34');
    await buyer.fill('#cvc', '123');
    await Promise.all([buyer.waitForURL(/\/thanks$/), buyer.click('#pay')]);
    // The order is recorded a moment after the payment; the page looks again by itself.
    const link = buyer.locator('#downloads a', { hasText: 'fern-sketches.pdf' });
    await link.waitFor({ timeout: 30_000 });
    await expect(buyer.locator('.license-key').textContent()).resolves.toMatch(/^[A-Z2-9]{5}(-[A-Z2-9]{5}){5}$/);
    const [download] = await Promise.all([buyer.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('fern-sketches.pdf');
    expect(readFileSync((await download.path())!).equals(bytes)).toBe(true);
    await buyer.screenshot({ path: `${SHOTS}/thank-you-downloads.png`, fullPage: true });
    await buyer.close();

    // The seller sees the order's key and revokes it.
    await settleWithRetries(runtime);
    const order = ((await account.test.get('/orders')).body as { _id: string }[])[0]!;
    await page.goto(`${runtime.url}/dashboard/orders/${order._id}`);
    await pageSettled(page);
    await page.getByTestId('license-key').waitFor();
    await page.getByRole('button', { name: /^Revoke / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('license-status').filter({ hasText: 'revoked' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/dashboard-order-keys.png` });
  });
});
