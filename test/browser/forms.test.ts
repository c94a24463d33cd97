import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let account: TestAccount;
let browser: Browser;
let site: Server;
let siteUrl: string;
/** Pages of the creator's own site (another origin): path → the snippet it embeds. */
const pages = new Map<string, string>();
/** Requests to any origin but the site and the API: the embed must load no third-party assets. */
const external: string[] = [];

beforeAll(async () => {
  runtime = await startTestRuntime();
  account = await createTestAccount(runtime, 'tier2');
  site = createServer((req, res) => {
    const snippet = pages.get(req.url ?? '') ?? '';
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<!doctype html><html><head><title>My blog</title></head><body><h1>My blog</h1><p>Intro text.</p>${snippet}<div style="height:3000px">Long article</div></body></html>`,
    );
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  site?.close();
  await runtime?.stop();
});

const unique = (p: string) => `${p}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const contactOf = async (email: string) =>
  ((await account.test.get(`/newsletters/subscribers?q=${encodeURIComponent(email)}`)).body.data as any[]).find((c) => c.email === email);
const statsOf = async (id: string) => (await account.test.get(`/forms/${id}`)).body.stats;

async function open(path: string, snippet: string): Promise<Page> {
  pages.set(path, snippet);
  const page = await browser.newPage();
  page.on('request', (r) => {
    const origin = new URL(r.url()).origin;
    if (origin !== siteUrl && origin !== runtime.url) external.push(r.url());
  });
  await page.goto(`${siteUrl}${path}`);
  return page;
}

describe('signup form embeds on a third-party page (Chromium)', () => {
  it('inline script: renders where the tag is, counts the view, subscribes after a human pause, shows the success state', { timeout: 60_000 }, async () => {
    const form = (
      await account.test.post('/forms', {
        name: 'Blog inline',
        headline: 'Get my letters',
        collectName: true,
        tags: ['blog'],
        successHeadline: 'Welcome aboard',
      })
    ).body;
    const page = await open('/inline', form.embed.script);
    await page.getByRole('heading', { name: 'Get my letters' }).waitFor();
    // The form sits right after the script tag, inside the article.
    expect(await page.evaluate(() => document.querySelector('[data-signup-form]')?.previousElementSibling?.tagName)).toBe('SCRIPT');
    const email = unique('inline');
    await page.getByPlaceholder('First name').fill('Ines');
    await page.getByPlaceholder(form.placeholder).fill(email);
    await page.waitForTimeout(1600);
    await page.getByRole('button', { name: form.buttonLabel }).click();
    await page.getByRole('heading', { name: 'Welcome aboard' }).waitFor();
    expect(await contactOf(email)).toMatchObject({ source: 'form', name: 'Ines', tags: ['blog'] });
    expect(await statsOf(form._id)).toEqual({ views: 1, signups: 1, conversionRate: 100 });
    await page.close();
  });

  it('a bot filling the honeypot sees success and nothing is stored', { timeout: 60_000 }, async () => {
    const form = (await account.test.post('/forms', { name: 'Trap' })).body;
    const page = await open('/trap', form.embed.script);
    const email = unique('bot');
    await page.getByPlaceholder(form.placeholder).fill(email);
    await page.locator('input[name=company]').fill('Spam Corp');
    await page.waitForTimeout(1600);
    await page.getByRole('button', { name: form.buttonLabel }).click();
    await page.getByRole('heading', { name: form.successHeadline }).waitFor();
    expect(await contactOf(email)).toBeUndefined();
    expect((await statsOf(form._id)).signups).toBe(0);
    await page.close();
  });

  it('popup after its delay; a close is remembered for frequencyDays; slide-in on scroll in its corner', { timeout: 60_000 }, async () => {
    const popup = (await account.test.post('/forms', { name: 'Popup', type: 'popup', trigger: { delaySeconds: 1 }, frequencyDays: 7 })).body;
    const page = await open('/popup', popup.embed.script);
    await page.waitForTimeout(300);
    expect(await page.locator('[data-signup-form]').count()).toBe(0);
    await page.getByRole('dialog').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await page.locator('[data-signup-form]').count()).toBe(0);
    await page.reload();
    await page.waitForTimeout(1800);
    expect(await page.locator('[data-signup-form]').count()).toBe(0);
    expect((await statsOf(popup._id)).views).toBe(1);
    await page.close();

    const slide = (await account.test.post('/forms', { name: 'Slide', type: 'slide_in', position: 'bottom_left', trigger: { scrollPercent: 50 } })).body;
    const second = await open('/slide', slide.embed.script);
    await second.waitForTimeout(500);
    expect(await second.locator('[data-signup-form]').count()).toBe(0);
    await second.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await second.getByRole('heading', { name: slide.headline }).waitFor();
    const box = await second.getByRole('heading', { name: slide.headline }).boundingBox();
    const viewport = second.viewportSize()!;
    expect(box!.x).toBeLessThan(viewport.width / 2);
    expect(box!.y).toBeGreaterThan(viewport.height / 2);
    await second.close();
  });

  it('iframe embed subscribes with double opt-in; a paused form renders nothing', { timeout: 60_000 }, async () => {
    const form = (await account.test.post('/forms', { name: 'Framed', doubleOptIn: true })).body;
    const page = await open('/frame', form.embed.iframe);
    const frame = page.frameLocator('iframe');
    const email = unique('framed');
    await frame.getByPlaceholder(form.placeholder).fill(email);
    await page.waitForTimeout(1600);
    await frame.getByRole('button', { name: form.buttonLabel }).click();
    await frame.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    // The confirmation mail is queued with the signup and delivered by the email worker.
    await settleWithRetries(runtime);
    const mails = (await new ApiClient(runtime.url).get(`/_local/emails?to=${encodeURIComponent(email)}`)).body.emails;
    expect(mails.map((m: any) => m.subject)).toEqual(['Please confirm your subscription']);
    await page.close();

    await account.test.patch(`/forms/${form._id}`, { status: 'paused' });
    const paused = await open('/paused', form.embed.script);
    await paused.waitForLoadState('networkidle');
    expect(await paused.locator('[data-signup-form]').count()).toBe(0);
    await paused.close();
  });

  it("a script of the creator's own site posts a JSON signup cross-origin (preflighted) and reads the refusal reasons; key routes stay closed", {
    timeout: 60_000,
  }, async () => {
    const form = (await account.test.post('/forms', { name: 'Own code', tags: ['own-form'] })).body;
    const page = await open('/own-code', '<p>My own form code</p>');
    expect(new URL(page.url()).origin).not.toBe(runtime.url);
    const email = unique('json');
    // application/json is not a "simple" content type: Chromium sends the OPTIONS preflight first.
    const call = (url: string, init: { method: string; headers?: Record<string, string>; body?: string }) =>
      page.evaluate(
        async ([u, i]) => {
          try {
            const res = await fetch(u, i);
            return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
          } catch (error) {
            return { failed: String(error) };
          }
        },
        [url, init] as const,
      );
    const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await call(`${runtime.url}/forms/public/${form._id}/subscribe`, json({ email, elapsedMs: 3000 }));
    expect(ok).toEqual({ status: 200, body: { status: 'subscribed', leadMagnet: null }, retryAfter: null });
    expect(await contactOf(email)).toMatchObject({ source: 'form', tags: ['own-form'] });
    // A refusal reaches the page with its reason, so the page can show it.
    const bad = await call(`${runtime.url}/forms/public/${form._id}/subscribe`, json({ email: 'nope', elapsedMs: 3000 }));
    expect(bad).toMatchObject({ status: 400, body: { field: 'email' } });
    // The same page cannot use a key route, even holding a key: the browser stops at the preflight.
    const keyed = await call(`${runtime.url}/forms`, { method: 'GET', headers: { authorization: `Bearer ${account.testKey}` } });
    expect(keyed).toHaveProperty('failed');
    const keyedWrite = await call(`${runtime.url}/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Injected' }),
    });
    expect(keyedWrite).toHaveProperty('failed');
    expect(((await account.test.get('/forms')).body as any[]).some((f) => f.name === 'Injected')).toBe(false);
    await page.close();
  });
});

// Declared last, so it runs after every embed above was loaded.
it('the embeds loaded nothing from a third party', () => {
  expect(pages.size).toBeGreaterThan(0);
  expect(external).toEqual([]);
});
