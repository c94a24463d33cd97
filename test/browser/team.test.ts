import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { createTestAccount, startTestRuntime } from '../support/runtime';
import { inviteLink } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

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

describe('team invite accepted in a browser', () => {
  it("follows the mailed link, accepts, and lands signed in to the dashboard with the member's areas", { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const team = (await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] })).body;
    const invited = await account.live.post('/team/invites', { email: 'browser@example.com', role: 'member', teamIds: [team._id] });
    expect(invited.status).toBe(201);
    const link = await inviteLink(runtime, 'browser@example.com');

    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(link);
    expect(await page.textContent('body')).toContain('browser@example.com');
    await page.fill('#name', 'Bea Browser');
    await page.click('button[type=submit]');
    // Into the dashboard, signed in, on the first page of their areas; no token to copy anywhere.
    await page.waitForURL(`${runtime.url}/dashboard/products`);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).toContain('Products');
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders', exact: true }).count()).toBe(0);
    expect(await page.content()).not.toContain('Bearer');
    const members = (await account.live.get('/team')).body.members;
    expect(members[1]).toMatchObject({ email: 'browser@example.com', name: 'Bea Browser', role: 'member', teamIds: [team._id] });

    // The same link again: a clear page, no second member.
    await page.goto(link);
    expect(await page.textContent('h1')).toContain('already accepted');
    await page.close();
  });
});
