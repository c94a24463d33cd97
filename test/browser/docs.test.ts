import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { LocalRuntime } from '../../shared/local/runtime';
import { startTestRuntime } from '../support/runtime';
import { launchChromium } from '../support/browser';

let runtime: LocalRuntime;
let browser: Browser;

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('API explorer', () => {
  it('loads offline from this API alone and lists the operations', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(runtime.url) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${runtime.url}/docs`);
    await page.waitForSelector('.opblock-summary-path[data-path="/users/me"]', { timeout: 30_000 });
    // The explorer renders the first tags at once and the rest progressively; the contract it
    // loaded from this API holds every operation.
    const loaded = await page.evaluate(() => Object.keys((window as any).ui.specSelectors.specJson().toJS().paths));
    expect(loaded).toContain('/users/me');
    expect(loaded).toContain('/docs.json');
    expect(await page.textContent('.title')).toContain('Creator Commerce API');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);

    // Open /users/me and read its summary, as a person exploring the API would.
    await page.click('.opblock-get .opblock-summary-path[data-path="/users/me"]');
    await page.waitForSelector('.opblock.is-open');
    expect(await page.textContent('.opblock.is-open')).toContain('The account the key belongs to');
    await page.screenshot({ path: '/tmp/docs-explorer.png' });
    await page.close();
  });
});
