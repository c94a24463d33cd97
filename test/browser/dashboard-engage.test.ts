import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createOffer, createProduct, openCheckout, pay } from '../support/commerce';
import { axeViolations, dashboardUrl, pageSettled, signInByMagicLink } from '../support/dashboard';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

const SHOTS = join(__dirname, 'screenshots');
const AFTER = 'docs/dashboard/after';
const OWNER = 'engage-owner@example.com';

let runtime: LocalRuntime;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let account: TestAccount;
const ids: Record<string, string> = {};

/** Opens a dashboard page by its address and waits for its content. */
async function open(path: string) {
  await page.goto(dashboardUrl(runtime, `/${path}`));
  await pageSettled(page);
}

const ok = async <T = any>(call: Promise<{ status: number; body: T; text: string }>, label: string): Promise<T> => {
  const res = await call;
  if (res.status >= 300) throw new Error(`${label}: ${res.status} ${res.text}`);
  return res.body;
};

/** Growth data of every kind the pages show, made through the API in test mode. */
async function seed() {
  const api = account.test;
  const offer = await createOffer(account, { name: 'Club', price: 9, frequency: 'monthly' });
  ids.offer = offer._id;
  await ok(
    api.put(`/subscriptions/${offer._id}/usage-pricing`, {
      seats: { enabled: true, unitPriceCents: 500, minimum: 1, maximum: 10 },
      meters: [{ key: 'api_calls', name: 'API calls', unitPriceCents: 2, includedUnits: 100 }],
    }),
    'usage pricing',
  );
  const magnet = await createProduct(account, { name: 'Free guide', price: 0 });
  const course = await createProduct(account, { name: 'Course', price: 49 });
  const membership = await ok(api.post('/memberships', { name: 'Inner circle', offerIds: [offer._id], communityEnabled: true }), 'membership');
  ids.membership = membership._id;
  await ok(api.post(`/memberships/${membership._id}/threads`, { title: 'Welcome thread', body: 'Say hello' }), 'thread');
  const funnel = await ok(
    api.post('/funnels', { templateId: 'welcome', leadMagnetProductId: magnet._id, offerProductId: course._id, offerUrl: 'https://shop.example.com/course' }),
    'funnel',
  );
  ids.funnel = funnel._id;
  await ok(api.put('/newsletters/settings', { fromName: 'Engage Shop', physicalAddress: '1 Main Street, Springfield' }), 'settings');
  for (const email of ['ann@example.com', 'bob@example.com']) await ok(api.post('/newsletters/subscribers', { email, tags: ['vip'] }), 'subscriber');
  await ok(api.post('/newsletters/subscribers', { email: 'gone@example.com', status: 'unsubscribed' }), 'unsubscribed');
  const session = await openCheckout(account, offer._id);
  const paid = await pay(runtime, session.id, { email: 'member@example.com', marketingOptIn: true });
  ids.subscriber = paid.subscriberId!;
  await settleWithRetries(runtime);
  await ok(api.post(`/subscriptions/${ids.subscriber}/usage`, { meter: 'api_calls', quantity: 150 }), 'usage');
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(AFTER, { recursive: true });
  runtime = await startTestRuntime();
  [browser, account] = await Promise.all([launchChromium(), createTestAccount(runtime, 'tier3', OWNER)]);
  await seed();
  // bypassCSP: axe-core is injected by the test; the app itself loads nothing from elsewhere.
  context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  await signInByMagicLink(page, runtime, OWNER);
  // The data is in test mode: switch as a person does; the choice stays for the pages opened next.
  await page.getByTestId('mode-switch').getByText('Test').click();
  await page.getByTestId('test-badge').waitFor();
}, 90_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await runtime?.stop();
});

describe('dashboard growth pages', () => {
  it('shows every growth page with its data and no serious or critical axe violation', { timeout: 110_000 }, async () => {
    const pages: [string, string, string][] = [
      ['memberships', 'Memberships', 'Inner circle'],
      [`memberships/${ids.membership}`, 'Inner circle', 'Posts'],
      ['funnels', 'Funnels', 'Free guide'],
      [`funnels/${ids.funnel}`, 'Free guide', 'Stats per step'],
      ['email/settings', 'Email sending', 'Verified'],
      ['email/posts', 'Newsletter posts', 'Audience'],
      ['email/suppressions', 'Suppression list', 'No bounced addresses'],
      ['email/automations', 'Automations', 'lead magnet claimed'],
      ['retention', 'Retention', 'Failed-renewal recovery'],
      ['retention/offers', 'Retention offers', 'Club'],
      ['retention/reports', 'Retention reports', 'Cancel flows'],
      ['usage', 'Usage billing', 'API calls'],
      [`usage/subscribers/${ids.subscriber}`, 'Usage report', 'API calls'],
    ];
    const failures: string[] = [];
    for (const [path, title, shows] of pages) {
      await open(path);
      expect(await page.locator('main h1').first().textContent(), path).toContain(title);
      await page.getByText(shows).first().waitFor({ timeout: 5_000 });
      expect(await page.locator('[data-testid=error-state]').count(), `${path} shows an error`).toBe(0);
      const violations = await axeViolations(page);
      if (violations.length) failures.push(`${path}: ${JSON.stringify(violations)}`);
      await page.screenshot({
        path: join(
          SHOTS,
          `engage-${
            path
              .split('/')
              .filter((p) => !/^[0-9a-f]{24}$|^[a-z]+_/.test(p))
              .join('-') || 'home'
          }.png`,
        ),
        fullPage: true,
      });
    }
    // The moderation tab and the members tab of a membership are pages of their own to a person.
    await open(`memberships/${ids.membership}`);
    for (const tab of ['Moderation', 'Members']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('table').first().waitFor();
      const violations = await axeViolations(page);
      if (violations.length) failures.push(`membership ${tab}: ${JSON.stringify(violations)}`);
    }
    expect(await page.getByText('member@example.com').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'engage-membership-members.png'), fullPage: true });
    expect(failures).toEqual([]);
  });

  it('the new-funnel form offers only free products as lead magnets and only paid ones as offers', { timeout: 30_000 }, async () => {
    await open('funnels');
    await page.getByRole('button', { name: 'New funnel' }).first().click();
    const dialog = page.getByRole('dialog');
    const choices = async (label: string | RegExp) => {
      await dialog.getByRole('textbox', { name: label }).click();
      const listbox = page.getByRole('listbox');
      await listbox.waitFor();
      const names = (await listbox.getByRole('option').allTextContents()).map((n) => n.trim()).sort();
      await page.keyboard.press('Escape');
      await listbox.waitFor({ state: 'hidden' });
      return names;
    };
    // The paid course and the subscription were listed (and then refused by the API) before.
    expect(await choices('Lead magnet (free product)')).toEqual(['Free guide']);
    expect(await choices(/Offer at the end/)).toEqual(['Club', 'Course']);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('writes and publishes a membership post from the dashboard', { timeout: 30_000 }, async () => {
    await open(`memberships/${ids.membership}`);
    await page.getByRole('button', { name: 'New post' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Title').fill('First members post');
    await dialog.getByRole('textbox', { name: 'Post', exact: true }).fill('Hello members');
    await dialog.getByLabel('Publish when saved').check();
    await dialog.getByRole('button', { name: 'Publish' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('table', { name: 'Posts' }).getByText('First members post').waitFor();
    const posts = (await account.test.get(`/memberships/${ids.membership}/posts`)).body.data;
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ title: 'First members post', status: 'published', notify: true, html: '<p>Hello members</p>' });
    await page.screenshot({ path: join(SHOTS, 'engage-membership-post.png'), fullPage: true });
  });

  it('composes a newsletter post in the rich-text editor, previews it, tests it, then sends it with a filling progress bar', { timeout: 60_000 }, async () => {
    await open('email/posts');
    await page.getByRole('button', { name: 'New post' }).first().click();
    await page.waitForURL(/\/dashboard\/email\/posts\/new$/);
    await pageSettled(page);
    await page.getByLabel('Subject').fill('October news');
    // Typed as a person types: a blank line between two paragraphs.
    const body = page.getByTestId('rich-text');
    await body.click();
    await page.keyboard.type('October');
    await page.getByRole('toolbar', { name: 'Formatting' }).getByRole('button', { name: 'Heading' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('What happened');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('this month.');
    // Both added contacts and the buyer of the club (a checkout contact); not the unsubscribed one.
    await expect(page.getByTestId('recipient-count').textContent()).resolves.toMatch(/^(Counting recipients…|3 subscribers will get it\.)$/);
    await page.getByTestId('recipient-count').getByText('3 subscribers will get it.').waitFor();
    const preview = page.frameLocator('iframe[title="Email preview"]');
    await preview.locator('h2', { hasText: 'October' }).waitFor();
    expect(await preview.locator('p').allTextContents()).toEqual(['What happened', 'this month.']);
    // A tag narrows the audience, and the count follows.
    await page.getByText('People with a tag', { exact: true }).click();
    await page.getByLabel('Tag', { exact: true }).fill('vip');
    await page.getByTestId('recipient-count').getByText('2 subscribers will get it.').waitFor();
    await page.getByText('All subscribers', { exact: true }).click();
    await page.getByTestId('recipient-count').getByText('3 subscribers will get it.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(AFTER, '6-composer.png'), fullPage: true });

    // A test to yourself first: one mail to the signed-in owner, marked [Test].
    await page.getByRole('button', { name: 'Send a test to me' }).click();
    await page.getByTestId('test-sent').waitFor();
    const mails = (await new ApiClient(runtime.url).get(`/_local/emails?to=${encodeURIComponent(OWNER)}`)).body.emails as { subject: string; html: string }[];
    const test = mails.find((m) => m.subject === '[Test] October news');
    expect(test?.html).toContain('<p>this month.</p>');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/dashboard\/email\/posts\/[0-9a-f]{24}$/);
    await page.locator('main h1', { hasText: 'October news' }).waitFor();
    const id = page.url().split('/').pop()!;
    expect((await account.test.get(`/newsletters/posts/${id}`)).body.html).toBe('<h2>October</h2><p>What happened</p><p>this month.</p>');
    await page.getByRole('button', { name: 'Send now' }).click();
    expect(await page.getByRole('dialog').textContent()).toContain('to 3 subscribers now?');
    await page.getByRole('dialog').getByRole('button', { name: 'Send now' }).click();
    await page.getByTestId('work-progress').waitFor();
    for (let i = 0; i < 30; i++) {
      await settleWithRetries(runtime);
      if ((await account.test.get(`/newsletters/posts/${id}`)).body.status === 'sent') break;
      await new Promise((r) => setTimeout(r, 300));
    }
    const post = (await account.test.get(`/newsletters/posts/${id}`)).body;
    expect(post).toMatchObject({ status: 'sent', sent: 3 });
    // The page polls while sending and then shows the API's final counters, the bar full.
    await page.getByTestId('work-progress').getByText('Sent').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('work-progress').textContent()).toContain('3 of 3');
    expect(await page.getByTestId('work-progress').getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await page.screenshot({ path: join(SHOTS, 'engage-newsletter-sent.png'), fullPage: true });
    await page.screenshot({ path: join(AFTER, '6-newsletter-sent.png') });
  });

  it('changes a recovery setting, and shows the API reason for a bad retention value', { timeout: 30_000 }, async () => {
    await open('retention');
    await page.getByRole('textbox', { name: 'When every retry has failed' }).click();
    await page.getByRole('option', { name: 'Pause the subscription' }).click();
    await page.getByRole('button', { name: 'Save recovery settings' }).click();
    await page.getByText('Recovery settings saved.').waitFor();
    expect((await account.test.get('/subscription-retention/recovery/settings')).body.finalAction).toBe('pause');

    const before = (await account.test.get(`/subscription-retention/offers/${ids.offer}`)).body;
    const refused = await account.test.put(`/subscription-retention/offers/${ids.offer}`, {
      saveOffers: { ...before.saveOffers, enabled: true, discountPercent: 95 },
      intro: before.intro,
      yearlySwitch: before.yearlySwitch,
    });
    expect(refused.status).toBe(400);

    await open('retention/offers');
    await page.getByRole('button', { name: 'Edit retention of Club' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Save offers when a subscriber cancels').click();
    expect(await dialog.getByLabel('Save offers when a subscriber cancels').isChecked()).toBe(true);
    await dialog.getByLabel('Discount to stay (percent, 5–90)').fill('95');
    await dialog.getByRole('button', { name: 'Save retention' }).click();
    const error = dialog.getByTestId('form-error');
    await error.waitFor();
    expect(await error.textContent()).toContain(refused.body.message);
    await page.screenshot({ path: join(SHOTS, 'engage-retention-refused.png'), fullPage: true });
    expect((await account.test.get(`/subscription-retention/offers/${ids.offer}`)).body.saveOffers).toEqual(before.saveOffers);

    // A good value goes through and the table shows the API's answer.
    await dialog.getByLabel('Discount to stay (percent, 5–90)').fill('20');
    await dialog.getByRole('button', { name: 'Save retention' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await account.test.get(`/subscription-retention/offers/${ids.offer}`)).body.saveOffers).toMatchObject({ enabled: true, discountPercent: 20 });
    await page.getByText('20% for').waitFor();
  });
});
