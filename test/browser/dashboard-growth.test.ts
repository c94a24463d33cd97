import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { axeViolations, dashboardUrl, signInByMagicLink, unfoldNav } from '../support/dashboard';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';
import { joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

const SCREENSHOTS = 'test/browser/screenshots';
let runtime: LocalRuntime;
let browser: Browser;
let owner: TestAccount;
let page: Page;

const shot = (name: string, on: Page = page) => on.screenshot({ path: join(SCREENSHOTS, `growth-${name}.png`), fullPage: true });
const settle = () => settleWithRetries(runtime);
async function accessible(name: string) {
  expect(await axeViolations(page), name).toEqual([]);
}
async function openDashboard(on: Page, path: string) {
  await on.goto(dashboardUrl(runtime, `/${path}`));
  await on.locator('main h1').first().waitFor();
}
/** Picks an option of a Mantine Select by the input's label. */
async function choose(label: string, option: string) {
  await page.getByLabel(label, { exact: true }).first().click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
/** The session token the dashboard signs its calls with (current store and mode). */
const dashboardToken = (on: Page) =>
  on.evaluate(() => {
    const session = JSON.parse(window.localStorage.getItem('dashboard.session') ?? 'null') as {
      accountId: string;
      mode: string;
      stores: { accountId: string; mode: string; token: string }[];
    } | null;
    return session?.stores.find((s) => s.accountId === session.accountId && s.mode === session.mode)?.token ?? '';
  });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [runtime, browser] = await Promise.all([startTestRuntime(), launchChromium()]);
  const ownerEmail = `owner-${Date.now().toString(36)}@example.com`;
  owner = await createTestAccount(runtime, 'volume', ownerEmail);
  page = await (await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })).newPage();
  await signInByMagicLink(page, runtime, ownerEmail);
  // The data here is live mode's; a store with no live sale opens in test mode, so switch as a person does.
  await page.getByTestId('mode-switch').getByText('Live').click();
  await page.getByTestId('live-badge').waitFor();
});
afterAll(async () => {
  await browser?.close();
  await runtime?.stop();
});

describe('dashboard growth pages', () => {
  beforeEach((ctx) => onTestFailed(() => void shot(`failed-${ctx.task.name.slice(0, 20).replace(/\W+/g, '-')}`).catch(() => undefined)));

  it('builds a segment with a live count that changes as rules are added, then saves it', { timeout: 60_000 }, async () => {
    for (const [email, tags] of [
      ['ann@example.com', ['vip']],
      ['ben@example.com', ['vip']],
      ['cal@example.com', []],
    ] as const) {
      expect((await owner.live.post('/newsletters/subscribers', { email, tags })).status).toBe(201);
    }
    await settle();

    await openDashboard(page, 'segments');
    await page.getByText('No segments yet').waitFor();
    await accessible('segments (empty)');

    await page.getByRole('link', { name: 'New segment' }).click();
    await page.getByLabel(/^Name/).fill('VIP fans');
    const count = page.getByTestId('segment-count');
    // First rule: joined through the API — everyone.
    await choose('New rule type for group 1', 'Joined through');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await choose('Group 1 rule 1 source', 'An app or integration');
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('3');
    // Second rule (match all): carries the tag vip — the count drops while editing.
    await choose('New rule type for group 1', 'Has the tag');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('Group 1 rule 2 tag', { exact: true }).fill('vip');
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('2');
    await expect.poll(() => page.getByRole('table', { name: 'Sample of matching contacts' }).textContent()).toMatch(/ann@example.com/);
    // Match any rule in the group: back to everyone.
    await page.locator('label', { hasText: 'Any rule' }).click();
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('3');
    await page.locator('label', { hasText: 'All rules' }).click();
    await expect.poll(() => count.textContent(), { timeout: 10_000 }).toBe('2');
    await accessible('segment editor');
    await shot('segment-editor');

    await page.getByRole('button', { name: 'Create segment' }).click();
    await page.waitForURL(/\/dashboard\/segments\/[0-9a-f]{24}$/);
    await page.getByRole('heading', { name: 'Members (2)' }).waitFor();
    const members = await page.getByRole('table', { name: 'Segment members' }).textContent();
    expect(members).toContain('ann@example.com');
    expect(members).not.toContain('cal@example.com');
    const saved = (await owner.live.get('/newsletters/segments')).body.data;
    expect(saved.map((s: { name: string; definition: unknown }) => [s.name, s.definition])).toEqual([
      [
        'VIP fans',
        {
          match: 'all',
          groups: [
            {
              match: 'all',
              rules: [
                { type: 'source', source: 'api' },
                { type: 'tag', tag: 'vip' },
              ],
            },
          ],
        },
      ],
    ]);
    await accessible('segment detail');

    await openDashboard(page, 'segments');
    await page.getByRole('link', { name: 'VIP fans' }).waitFor();
    await accessible('segments');
  });

  it('imports a pasted CSV: dry run counts, start, progress to completed, report', { timeout: 60_000 }, async () => {
    await openDashboard(page, 'imports');
    await page.getByText('No imports yet').waitFor();
    await accessible('imports (empty)');
    await page.getByRole('link', { name: 'New import' }).click();
    await page.getByRole('heading', { name: 'New import' }).waitFor();
    await accessible('new import');
    const csv = [
      'Email,First Name,Status,Tags',
      'dora@example.com,Dora,subscribed,vip',
      'eli@example.com,Eli,unsubscribed,',
      'fay@example.com,Fay,archived,',
      'not-an-email,Gus,subscribed,',
    ].join('\n');
    await page.getByLabel('CSV content').fill(csv);
    await page.getByLabel('File name').fill('subscribers.csv');
    await page.getByRole('button', { name: 'Add file' }).click();
    await page.getByText('subscribers: subscribers.csv (4 rows)').waitFor();
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/dashboard\/imports\/[0-9a-f]{24}$/);
    await page.getByRole('table', { name: 'Rows with problems (subscribers)' }).waitFor();
    expect(await page.getByRole('table', { name: 'Rows with problems (subscribers)' }).textContent()).toContain('not-an-email');

    await page.getByRole('button', { name: 'Run the dry run' }).click();
    const dry = page.getByTestId('dry-run-counts');
    await dry.waitFor();
    const figure = async (key: string) => (await dry.locator(`[data-count="subscribers.${key}"] td`).nth(1).textContent())?.trim();
    expect([
      await figure('total'),
      await figure('invalid'),
      await figure('noConsent'),
      await figure('create'),
      await figure('active'),
      await figure('unsubscribed'),
    ]).toEqual(['4', '1', '1', '2', '1', '1']);
    expect(await page.getByTestId('dry-run-can-start').textContent()).toBe('ready to start');
    await accessible('import dry run');
    await shot('import-dry-run');

    await page.getByRole('button', { name: 'Start import' }).click();
    await settle();
    await expect.poll(() => page.getByTestId('import-status').textContent(), { timeout: 15_000 }).toBe('completed');
    const progress = page.getByTestId('import-progress');
    await expect.poll(() => progress.textContent()).toContain('4 of 4 · 2 created · 0 existing · 1 skipped · 1 failed');
    await page.getByTestId('import-report').waitFor();
    await accessible('import report');
    await shot('import-completed');
    const contacts = (await owner.live.get('/newsletters/subscribers?limit=100')).body.data.map((c: { email: string }) => c.email);
    expect(contacts).toEqual(expect.arrayContaining(['dora@example.com', 'eli@example.com']));
    expect(contacts).not.toContain('fay@example.com');

    await openDashboard(page, 'imports');
    await page.getByRole('table', { name: 'Imports' }).waitFor();
    await accessible('imports');
  });

  it('shows the team page to the owner, and a member invited to one area sees only that area', { timeout: 60_000 }, async () => {
    const emailsTeam = (await owner.live.post('/team/teams', { name: 'Newsletter', areas: ['emails'] })).body;
    const memberEmail = `member-${Date.now().toString(36)}@example.com`;
    await joinTeam(runtime, owner, memberEmail, 'member', [emailsTeam._id]);

    await openDashboard(page, 'team');
    await page.getByRole('table', { name: 'Members' }).getByText(memberEmail).waitFor();
    await accessible('team members');
    for (const tab of ['Invites', 'Teams', 'Activity']) {
      await page.getByRole('tab', { name: new RegExp(`^${tab}`) }).click();
      await page.getByRole('tabpanel').locator('table, [data-testid=empty-state]').first().waitFor();
      await accessible(`team ${tab.toLowerCase()}`);
      if (tab === 'Teams') expect(await page.getByRole('table', { name: 'Teams' }).textContent()).toContain('Newsletter');
    }
    await shot('team-activity');

    const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const member = await memberContext.newPage();
      await signInByMagicLink(member, runtime, memberEmail);
      await member.getByTestId('mode-switch').getByText('Live').click();
      await member.getByTestId('live-badge').waitFor();
      const nav = member.getByRole('navigation', { name: 'Main' });
      await unfoldNav(member);
      await nav.getByRole('link', { name: 'Segments' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Imports' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);

      await openDashboard(member, 'segments');
      await member.getByRole('link', { name: 'VIP fans' }).waitFor();
      await openDashboard(member, 'imports');
      await expect.poll(() => member.locator('main').textContent()).toMatch(/not allowed|does not include this part of the store/i);
      await shot('member-not-allowed', member);

      // The dashboard's own session token: a write outside the member's areas is refused.
      const token = await dashboardToken(member);
      const imports = (await owner.live.get('/migrations')).body.data.length;
      const refused = await member.evaluate(
        async ([url, bearer]) => {
          const response = await fetch(`${url}/migrations`, {
            method: 'POST',
            headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
            body: JSON.stringify({ source: 'csv' }),
          });
          return response.status;
        },
        [runtime.url, token] as const,
      );
      expect(refused).toBe(403);
      expect((await owner.live.get('/migrations')).body.data).toHaveLength(imports);
    } finally {
      await memberContext.close();
    }
  });
  it('signup form live preview and embed code; contacts, sheets, attribution and tracked links pages pass axe-core', { timeout: 60_000 }, async () => {
    await openDashboard(page, 'forms');
    await page.getByText('No signup forms yet').waitFor();
    await accessible('forms (empty)');
    await page.getByRole('link', { name: 'New form' }).click();
    await page.getByLabel(/^Name/).fill('Footer form');
    await page.getByLabel('Headline', { exact: true }).fill('Letters from the studio');
    await page.getByLabel('Button label', { exact: true }).fill('Count me in');
    const preview = page.getByTestId('form-preview');
    await expect.poll(() => preview.textContent()).toContain('Letters from the studio');
    expect(await preview.getByRole('button').textContent()).toBe('Count me in');
    await accessible('form editor');
    await page.getByRole('button', { name: 'Create form' }).click();
    await page.waitForURL(/\/dashboard\/forms\/[0-9a-f]{24}$/);
    const script = await page.getByTestId('embed-script').textContent();
    const saved = (await owner.live.get('/forms')).body as { _id: string; headline: string; buttonLabel: string; embed: { script: string } }[];
    expect(saved.map((f) => [f.headline, f.buttonLabel])).toEqual([['Letters from the studio', 'Count me in']]);
    expect(script).toBe(saved[0]!.embed.script);
    await accessible('form detail');
    await shot('form-editor');

    expect((await owner.live.post('/links', { name: 'Bio link', channel: 'instagram', targetUrl: 'https://example.com/shop' })).status).toBe(201);
    expect((await owner.live.post('/newsletters/subscribers', { email: 'hal@example.com' })).status).toBe(201);
    for (const [path, title, ready] of [
      ['contacts', 'Contacts', 'hal@example.com'],
      ['links', 'Tracked links', 'Bio link'],
      ['attribution', 'Attribution survey', 'Response rate'],
      ['sheets', 'Google Sheets', 'Status'],
      ['forms', 'Signup forms', 'Footer form'],
    ] as const) {
      await openDashboard(page, path);
      expect(await page.locator('main h1').textContent()).toBe(title);
      await page.locator('main').getByText(ready).first().waitFor();
      expect(await page.getByTestId('error-state').count(), `${path} shows an error`).toBe(0);
      await accessible(path);
      await shot(path);
    }
  });
});
