import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { ApiClient, createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { axeViolations, dashboardUrl, navTo, pageSettled, signInByMagicLink, signInToken, unfoldNav } from '../support/dashboard';
import { pay } from '../support/commerce';
import { joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

const SHOTS = 'test/browser/screenshots';
const AFTER = 'docs/dashboard/after';
const OWNER = 'owner-dash@example.com';

let runtime: LocalRuntime;
let browser: Browser;
let account: TestAccount;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(AFTER, { recursive: true });
  runtime = await startTestRuntime();
  [browser, account] = await Promise.all([launchChromium(), createTestAccount(runtime, 'volume', OWNER)]);
  // bypassCSP: axe-core is injected by the test (addScriptTag); the app itself loads nothing from elsewhere.
  page = await (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 800 } })).newPage();
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/dashboard-${name}.png` });

describe('seller dashboard in a browser', () => {
  it('signs in by magic link, creates a product, sees it bought through the hosted checkout and refunded', { timeout: 60_000 }, async () => {
    await signInByMagicLink(page, runtime, OWNER);
    await pageSettled(page);
    expect(await page.locator('main h1').textContent()).toBe('Home');
    // A new store opens in test mode (no live sale, no live processor) and says so in words.
    await page.getByTestId('test-badge').waitFor();
    expect(await page.getByTestId('test-mode-note').textContent()).toContain('no card is charged');
    expect(await page.getByTestId('live-badge').count()).toBe(0);
    // Seven sections instead of a flat list: Home is a link, the others fold open.
    const nav = page.getByRole('navigation', { name: 'Main' });
    const top = await nav.locator(':scope a[href="/dashboard"], :scope button[data-testid^="nav-section-"]').allTextContents();
    expect(top.map((t) => t.trim())).toEqual(['Home', 'Products', 'Sales', 'Audience', 'Growth', 'Settings', 'Developers']);
    await page.screenshot({ path: `${AFTER}/2-nav-test-mode.png` });
    // A new store: the checklist of what is left, each step with its action.
    const checklist = page.getByTestId('onboarding-checklist');
    expect(await checklist.getByRole('listitem').allTextContents()).toEqual([
      'Add a productAdd a product',
      'Share its buy linkCopy a buy link',
      'Connect Stripe to take real paymentsConnect Stripe',
      expect.stringContaining('Verify the address your emails come from'),
    ]);
    await page.screenshot({ path: `${AFTER}/7-checklist.png` });

    await checklist.getByRole('link', { name: 'Add a product' }).click();
    await pageSettled(page);
    // An empty list says what to do and offers the button that does it.
    await page.getByTestId('empty-state').getByRole('button', { name: 'Add your first product' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${AFTER}/7-empty-products.png` });
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
    const session = await account.test.post('/checkout/sessions', {
      productId: product._id,
      successUrl: `${runtime.url}/thanks`,
      cancelUrl: `${runtime.url}/cart`,
    });
    expect(session.status).toBe(201);
    const buyer = await browser.newPage();
    await buyer.goto(session.body.url);
    await buyer.fill('#email', 'buyer-dash@example.com');
    await buyer.fill('#cardNumber', '4242 4242 4242 4242');
    await buyer.fill('#expiry', '12/34');
    await buyer.fill('#cvc', '123');
    await Promise.all([buyer.waitForURL(/\/thanks$/), buyer.click('#pay')]);
    await buyer.close();
    await settleWithRetries(runtime);

    await navTo(page, 'Sales', 'Orders');
    await page.getByText('buyer-dash@example.com').first().waitFor();
    const orders = (await account.test.get('/orders')).body as { _id: string }[];
    expect(orders).toHaveLength(1);

    // The seller refunds it in the dashboard; the processor carries it out and reports it.
    await page.getByRole('table', { name: 'Orders' }).getByRole('link').first().click();
    await pageSettled(page);
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await settleWithRetries(runtime);
    await page.reload();
    await pageSettled(page);
    await expect(page.getByTestId('sale-status').textContent()).resolves.toBe('Refunded');
    await expect(page.getByTestId('refunded-amount').textContent()).resolves.toMatch(/19\.50/);
    await shot('order-refunded');

    // Home figures reflect it: one sale, nothing left of its revenue.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
    await pageSettled(page);
    await expect(page.getByTestId('figure-sales').textContent()).resolves.toContain('1');
  });

  it('opens in live mode once the store has a live sale', { timeout: 40_000 }, async () => {
    const live = await account.live.post('/products', { name: 'Live guide', price: 5 });
    expect(live.status).toBe(201);
    const session = await account.live.post('/checkout/sessions', {
      productId: live.body._id,
      successUrl: `${runtime.url}/thanks`,
      cancelUrl: `${runtime.url}/cart`,
    });
    expect(session.status).toBe(201);
    await pay(runtime, session.body.id, { email: 'live-buyer@example.com' });
    await settleWithRetries(runtime);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    await signInByMagicLink(fresh, runtime, OWNER);
    await pageSettled(fresh);
    await fresh.getByTestId('live-badge').waitFor();
    expect(await fresh.getByTestId('test-badge').count()).toBe(0);
    await fresh.screenshot({ path: `${AFTER}/2-opens-live.png` });
    // The person's own switch wins from then on, on this browser.
    await fresh.getByTestId('mode-switch').getByText('Test').click();
    await fresh.getByTestId('test-badge').waitFor();
    await context.close();
  });

  it('every page of the nav has no axe-core violation at all', { timeout: 240_000 }, async () => {
    await unfoldNav(page);
    const links = await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .evaluateAll((anchors) => anchors.map((a) => ({ name: a.textContent!.trim(), href: (a as HTMLAnchorElement).pathname })));
    expect(links.length).toBeGreaterThanOrEqual(38);
    const found: Record<string, unknown> = {};
    for (const link of links) {
      await page.goto(`${runtime.url}${link.href}`);
      await pageSettled(page);
      expect(await page.getByTestId('error-state').count(), `${link.href} shows an error`).toBe(0);
      const violations = await axeViolations(page);
      if (violations.length) found[link.href] = violations;
      await shot(link.href.replace(/^\/dashboard\/?/, '').replace(/\//g, '-') || 'home');
    }
    expect(found).toEqual({});
  });

  it('sends a person whose session ended back to sign-in, refuses a used link with its reason, and signs out', { timeout: 40_000 }, async () => {
    const tokens = async () =>
      (await page.evaluate(() => JSON.parse(localStorage.getItem('dashboard.session') ?? 'null'))) as { stores: { mode: string; token: string }[] } | null;
    // The session ends elsewhere (sign-out with one of its tokens): the next call answers 401.
    const ended = (await tokens())!.stores[0]!.token;
    expect((await new ApiClient(runtime.url, ended).post('/dashboard/auth/sign-out')).status).toBe(204);
    const customers = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Customers' });
    if (!(await customers.isVisible())) await page.getByTestId('nav-section-sales').click();
    await customers.click();
    await page.getByRole('heading', { name: 'Sign in to your dashboard' }).waitFor();
    await page.getByText('Your session has expired').waitFor();
    expect(await tokens()).toBeNull();

    // The link used at the start works once.
    await page.goto(dashboardUrl(runtime, `/sign-in?token=${encodeURIComponent(await signInToken(runtime, OWNER))}`));
    await expect(page.getByTestId('form-error').textContent()).resolves.toMatch(/already used/);
    // The heading of a sign-in refusal says what happened, not "Not saved".
    expect(await page.getByTestId('form-error').textContent()).toMatch(/^Could not sign you in/);
    await page.screenshot({ path: `${AFTER}/7-sign-in-refused.png` });

    // Small screens: the nav folds behind a labelled button.
    await signInByMagicLink(page, runtime, OWNER);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await navTo(page, 'Sales', 'Orders');
    await shot('mobile-orders');
    await page.setViewportSize({ width: 1280, height: 860 });

    const current = (await tokens())!.stores.map((s) => s.token);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    for (const token of current) expect((await new ApiClient(runtime.url, token).get('/dashboard/auth/me')).status).toBe(401);
  });

  it('shows a team member only the pages of their areas', { timeout: 30_000 }, async () => {
    const team = (await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] })).body;
    await joinTeam(runtime, account, 'member-dash@example.com', 'member', [team._id]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const member = await context.newPage();
    await signInByMagicLink(member, runtime, 'member-dash@example.com');
    // Home needs the analytics area: the member lands on their first page instead.
    await member.waitForURL(`${runtime.url}/dashboard/products`);
    await unfoldNav(member);
    const nav = await member.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    // The pages of the products area (catalog, memberships, imports), nothing of another area.
    expect(nav).toEqual(['Products', 'Subscription offers', 'Images', 'Refund policies', 'Reviews', 'Memberships', 'Imports']);
    // A member of live mode only: the test side of the switch is off.
    await expect(member.getByTestId('mode-switch').getByRole('radio', { name: 'Test' }).isDisabled()).resolves.toBe(true);
    await member.goto(dashboardUrl(runtime, '/orders'));
    await member.getByText('Your role does not include this part of the store').waitFor();
    await member.screenshot({ path: `${SHOTS}/dashboard-member-refused.png` });
    await context.close();
  });
});
