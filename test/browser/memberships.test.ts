import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import { control, createProduct } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { changeMember, requireMembership } from '../../shared/memberships/service';
import { productSource } from '../../shared/memberships/rules';

let runtime: LocalRuntime;
let browser: Browser;

beforeAll(async () => {
  runtime = await startTestRuntime();
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('member area (Chromium)', () => {
  it('a member opens the mailed link, reads a post and replies to a thread', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const product = await createProduct(account, { name: 'Studio pass', price: 10 });
    const membership = (await account.test.post('/memberships', { name: 'Studio', productIds: [product._id], productBuyersJoin: true })).body;
    await account.test.post(`/memberships/${membership._id}/posts`, {
      title: 'Glazing basics',
      html: '<p>Dip, wait, <strong>fire</strong>.</p>',
      status: 'published',
    });
    const thread = (await account.test.post(`/memberships/${membership._id}/threads`, { title: 'Introduce yourself', body: 'Who are you?' })).body;
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const record = await requireMembership(runtime.deps, scope, membership._id);
    await changeMember(runtime.deps, scope, record, {
      email: 'potter@example.com',
      name: 'Pat Potter',
      add: [productSource(product._id, 'o1')],
      now: runtime.clock.now().toISOString(),
      reason: 'subscription_ended',
    });
    await settleWithRetries(runtime);
    const mail = ((await control(runtime).get('/_local/emails')).body.emails as { to: string; subject: string; html: string }[]).find(
      (m) => m.to === 'potter@example.com' && m.subject === 'Your access to Studio',
    )!;
    const link = /href="([^"]*\/member-area\/[0-9A-Za-z]{32})"/.exec(mail.html)![1]!;

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(link);
    await page.getByRole('link', { name: 'Glazing basics' }).click();
    await page.getByRole('heading', { name: 'Glazing basics' }).waitFor();
    expect(await page.locator('.post strong').textContent()).toBe('fire');
    // Framed like the seller's checkout (issue 47): the store's name heads the page.
    await page.locator('header.seller .name').waitFor();
    mkdirSync('docs/dashboard/after', { recursive: true });
    await page.screenshot({ path: 'docs/dashboard/after/7-member-area.png', fullPage: true });
    // The nonce'd style applied under the strict policy.
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');

    await page.getByRole('link', { name: 'Community' }).click();
    await page.getByRole('link', { name: 'Introduce yourself' }).click();
    await page.getByLabel('Your reply').fill('Hi, I make mugs.');
    await page.getByRole('button', { name: 'Reply' }).click();
    await page.getByText('Hi, I make mugs.').waitFor();
    expect(await page.locator('.reply .meta').first().textContent()).toContain('Pat Potter');
    expect(await page.content()).not.toContain('potter@example.com');
    expect(problems).toEqual([]);
    await page.close();

    const api = (await account.test.get(`/memberships/${membership._id}/threads/${thread._id}`)).body;
    expect(api.replyCount).toBe(1);
    expect(api.replies.data[0]).toMatchObject({ body: 'Hi, I make mugs.', author: { email: 'potter@example.com', name: 'Pat Potter', role: 'member' } });
  });
});
