import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { dashboardUrl, seriousAxeViolations, signInByMagicLink } from '../support/dashboard';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let browser: Browser;
let owner: TestAccount;
let page: Page;

beforeAll(async () => {
  [runtime, browser] = await Promise.all([startTestRuntime(), launchChromium()]);
  const email = `owner-${Date.now().toString(36)}@example.com`;
  owner = await createTestAccount(runtime, 'volume', email);
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await signInByMagicLink(page, runtime, email);
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('dashboard checkout settings', () => {
  it("turns abandoned-checkout reminders on and sets the buyers' default language", { timeout: 90_000 }, async () => {
    await page.goto(dashboardUrl(runtime, '/settings'));
    await page.getByRole('heading', { name: 'Abandoned checkouts' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A delay out of range is refused with the API's reason, and nothing is saved.
    await page.getByText('Send a reminder to buyers who left a checkout', { exact: true }).click();
    expect(await page.getByLabel('Send a reminder to buyers who left a checkout').isChecked()).toBe(true);
    await page.getByLabel('Minutes after the checkout opened').fill('10');
    await page.getByRole('button', { name: 'Save reminders' }).click();
    await page.getByText('at least 30 minutes').waitFor();

    await page.getByLabel('Minutes after the checkout opened').fill('90');
    await page.getByRole('button', { name: 'Save reminders' }).click();
    await page
      .getByText(/^Saved /)
      .first()
      .waitFor();

    await page.getByRole('textbox', { name: 'Default language for buyers' }).click();
    await page.getByRole('option', { name: 'Français', exact: true }).click();
    await page.getByRole('button', { name: 'Save store details' }).click();
    await page.locator('#store').getByText('Saved.', { exact: true }).waitFor();

    // The dashboard works in one mode; that mode's settings changed, the other's did not.
    const [live, test] = await Promise.all([owner.live.get('/checkout/recovery'), owner.test.get('/checkout/recovery')]);
    const changed = [live.body, test.body].filter((s) => s.enabled);
    expect(changed).toEqual([expect.objectContaining({ enabled: true, delayMinutes: 90, discountCode: null })]);
    const locales = [(await owner.live.get('/account/branding')).body.locale, (await owner.test.get('/account/branding')).body.locale];
    expect(locales.sort()).toEqual(['fr', null].sort());
  });
});
