import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { ApiClient, createTestAccount, startTestRuntime } from '../support/runtime';
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
  it('follows the mailed link, accepts, and the shown session token acts within the member\'s areas', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const team = (await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] })).body;
    const invited = await account.live.post('/team/invites', { email: 'browser@example.com', role: 'member', teamIds: [team._id] });
    expect(invited.status).toBe(201);
    const link = await inviteLink(runtime, 'browser@example.com');

    const page = await browser.newPage();
    await page.goto(link);
    expect(await page.textContent('body')).toContain('browser@example.com');
    await page.fill('#name', 'Bea Browser');
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toContain('You joined the team');
    const token = (await page.textContent('#session-token'))!.trim();

    const member = new ApiClient(runtime.url, token);
    expect((await member.get('/products')).status).toBe(200);
    expect((await member.get('/orders')).status).toBe(403);
    const members = (await account.live.get('/team')).body.members;
    expect(members[1]).toMatchObject({ email: 'browser@example.com', name: 'Bea Browser', role: 'member', teamIds: [team._id] });

    // The same link again: a clear page, no second member.
    await page.goto(link);
    expect(await page.textContent('h1')).toContain('already accepted');
    await page.close();
  });
});
