import { mkdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { pay } from '../support/commerce';
import { axeViolations, navTo, pageSettled, signInByMagicLink } from '../support/dashboard';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

/** This round's capabilities, each on its page (issue 47 item 8), with after screenshots. */
const AFTER = 'docs/dashboard/after';
const OWNER = 'caps-47@example.com';

let runtime: LocalRuntime;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: TestAccount;
let product: { _id: string; buyPath: string };

beforeAll(async () => {
  mkdirSync(AFTER, { recursive: true });
  runtime = await startTestRuntime();
  [browser, account] = await Promise.all([launchChromium(), createTestAccount(runtime, 'volume', OWNER)]);
  const created = await account.test.post('/products', { name: 'Synth patches', price: 15, licenseKeys: { enabled: true, activationLimit: 2 } });
  expect(created.status).toBe(201);
  product = created.body;
  // bypassCSP: axe-core is injected by the test (addScriptTag); the app itself loads nothing from elsewhere.
  context = await browser.newContext({
    bypassCSP: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 800 },
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

const download = async (click: () => Promise<unknown>) => {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), bytes: readFileSync((await file.path())!) };
};

describe('this round’s capabilities in the dashboard', () => {
  it('uploads a product file with progress, and copies the buy link', { timeout: 60_000 }, async () => {
    await navTo(page, 'Products', 'Products');
    await page.getByRole('button', { name: 'Copy the buy link of Synth patches' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${runtime.url}${product.buyPath}`);
    await page.getByRole('button', { name: 'Files of Synth patches' }).click();
    const dialog = page.getByRole('dialog');
    const bytes = Buffer.alloc(2 * 1024 * 1024, 7);
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'patches.zip', mimeType: 'application/zip', buffer: bytes });
    await dialog.getByTestId('upload-file').click();
    // The bar is driven by the browser's upload progress events: it ends full, and says so.
    await dialog.getByTestId('upload-progress').getByText('patches.zip is uploaded.').waitFor();
    expect(await dialog.getByTestId('upload-progress').getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await dialog.getByTestId('file-name').filter({ hasText: 'patches.zip' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/8-product-files.png` });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const files = (await account.test.get(`/products/${product._id}/files`)).body as { name: string; size: number }[];
    expect(files).toEqual([expect.objectContaining({ name: 'patches.zip', size: bytes.length })]);
  });

  it('downloads the invoice of an order and revokes its licence key', { timeout: 60_000 }, async () => {
    const session = await account.test.post('/checkout/sessions', {
      productId: product._id,
      successUrl: `${runtime.url}/thanks`,
      cancelUrl: `${runtime.url}/cart`,
    });
    await pay(runtime, session.body.id, { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', country: 'US' });
    await settleWithRetries(runtime);
    await navTo(page, 'Sales', 'Orders');
    await page.getByRole('table', { name: 'Orders' }).getByRole('link', { name: 'Synth patches' }).click();
    await pageSettled(page);
    const invoice = await download(() => page.getByRole('button', { name: 'Download invoice (PDF)' }).click());
    expect(invoice.name).toMatch(/\.pdf$/);
    expect(invoice.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await page.getByTestId('license-key').waitFor();
    await page.getByRole('button', { name: /^Revoke / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('license-status').filter({ hasText: 'revoked' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/8-order-invoice-licence.png`, fullPage: true });
    const keys = (await account.test.get('/licenses')).body;
    expect(JSON.stringify(keys)).toContain('"revoked"');
  });

  it('exports a customer’s data, erases the customer, and shows the audit log in words', { timeout: 60_000 }, async () => {
    await navTo(page, 'Sales', 'Customers');
    await page.getByRole('button', { name: 'Export grace@example.com' }).click();
    const exported = await download(() => page.getByRole('dialog').getByRole('button', { name: 'Download' }).click());
    expect(exported.name).toMatch(/\.json$/);
    expect(exported.bytes.toString()).toContain('grace@example.com');
    await page.getByRole('button', { name: 'Erase grace@example.com' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Erase' }).click();
    await page.getByText('grace@example.com is being erased').waitFor();
    // The confirmation fades out: checked mid-fade, its buttons' colours are half drawn.
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/8-customers-erase.png` });

    await navTo(page, 'Settings', 'Audit log');
    const log = page.getByRole('table', { name: 'Audit log' });
    await log.getByText('Revoke license').first().waitFor();
    expect(await log.textContent()).not.toMatch(/revokeLicense|[0-9a-f]{24}/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/8-audit-log.png` });
  });
});
