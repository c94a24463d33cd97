import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let ctl: ApiClient;
let pub: ApiClient;
beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
  pub = new ApiClient(runtime.url);
});
afterAll(async () => runtime?.stop());

const unique = (p: string) => `${p}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const settle = () => settleWithRetries(runtime);
/** The mails sent to an address, once the queued ones are delivered (the email worker sends them). */
const mails = async (to: string) => {
  await settle();
  return (await ctl.get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails as { subject: string; html: string }[];
};
/**
 * Each test starts with the per-IP signup limit clear (all tests share 127.0.0.1): the limit slides
 * over the previous 15-minute window too, so move past two whole windows.
 */
const nextIpWindow = () => ctl.post('/_local/clock/advance', { seconds: 30 * 60 });
const contactOf = async (api: ApiClient, email: string) =>
  ((await api.get(`/newsletters/subscribers?q=${encodeURIComponent(email)}`)).body.data as any[]).find((c) => c.email === email);
const subscribe = (id: string, body: Record<string, unknown>) => pub.post(`/forms/public/${id}/subscribe`, { elapsedMs: 4000, ...body });

describe('signup forms', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await createTestAccount(runtime, 'tier2');
  });

  it('create: field ranges answer 400 naming the field, defaults per type, Growth gate, stats and embed', async () => {
    const api = account.test;
    const bad: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(81) }, 'name'],
      [{}, 'name'],
      [{ name: 'F', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'tags'],
      [{ name: 'F', trigger: { delaySeconds: 121 } }, 'trigger.delaySeconds'],
      [{ name: 'F', trigger: { scrollPercent: 101 } }, 'trigger.scrollPercent'],
      [{ name: 'F', frequencyDays: 366 }, 'frequencyDays'],
      [{ name: 'F', accentColor: 'red' }, 'accentColor'],
      [{ name: 'F', type: 'banner' }, 'type'],
      [{ name: 'F', position: 'top_left' }, 'position'],
    ];
    for (const [body, field] of bad) {
      const res = await api.post('/forms', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    const paid = (await api.post('/products', { name: 'Paid thing', price: 20 })).body;
    expect((await api.post('/forms', { name: 'F', leadMagnetProductId: paid._id })).body).toMatchObject({
      code: 'LEAD_MAGNET_NOT_FREE',
      field: 'leadMagnetProductId',
    });
    expect((await api.get('/forms')).body).toEqual([]);

    const popup = await api.post('/forms', { name: 'Exit popup', type: 'popup', trigger: { exitIntent: true } });
    expect(popup.status, popup.text).toBe(201);
    expect(popup.body).toMatchObject({
      type: 'popup',
      status: 'active',
      headline: 'Wait! Get it free',
      buttonLabel: 'Get access',
      trigger: { delaySeconds: 0, scrollPercent: 0, exitIntent: true },
      stats: { views: 0, signups: 0, conversionRate: 0 },
    });
    expect(popup.body.embed.script).toBe(`<script src="${runtime.url}/forms/public/${popup.body._id}/embed.js" async></script>`);
    expect(popup.body.embed.iframe).toContain(`${runtime.url}/forms/public/${popup.body._id}/frame`);
    const inline = (await api.post('/forms', { name: 'Inline', headline: 'My list' })).body;
    expect(inline).toMatchObject({ type: 'inline', headline: 'My list', buttonLabel: 'Subscribe' });
    expect((await api.get('/forms')).body.map((f: any) => f._id)).toEqual([inline._id, popup.body._id]);

    const free = await createTestAccount(runtime, 'free');
    expect((await free.test.post('/forms', { name: 'F' })).body.code).toBe('FEATURE_LOCKED');
    // After a downgrade, pausing and archiving stay open; editing does not.
    await ctl.patch(`/_local/accounts/${account.accountId}`, { plan: 'free' });
    expect((await api.patch(`/forms/${inline._id}`, { headline: 'New' })).body.code).toBe('FEATURE_LOCKED');
    expect((await api.patch(`/forms/${inline._id}`, { status: 'paused' })).body.status).toBe('paused');
    expect((await api.patch(`/forms/${inline._id}`, { status: 'archived' })).body.status).toBe('archived');
    await ctl.patch(`/_local/accounts/${account.accountId}`, { plan: 'tier2' });
    const edited = await api.patch(`/forms/${inline._id}`, { headline: 'New', status: 'active', tags: ['a', 'b'] });
    expect(edited.body).toMatchObject({ headline: 'New', status: 'active', tags: ['a', 'b'] });
    expect((await api.patch(`/forms/${inline._id}`, { frequencyDays: -1 })).body.field).toBe('frequencyDays');
    expect((await api.delete(`/forms/${popup.body._id}`)).body).toEqual({ _id: popup.body._id, deleted: true });
    expect((await api.get(`/forms/${popup.body._id}`)).status).toBe(404);
    expect((await pub.get(`/forms/public/${popup.body._id}`)).status).toBe(404);
  });

  it('public subscribe: contact with source form, tags and consent; views and signups; lead magnet and funnel lead; no reveal', {
    timeout: 60_000,
  }, async () => {
    await nextIpWindow();
    const api = account.test;
    const magnet = (await api.post('/products', { name: 'Free checklist', price: 0 })).body;
    const offer = (await api.post('/products', { name: 'Course', price: 50 })).body;
    const funnel = (
      await api.post('/funnels', {
        templateId: 'welcome',
        leadMagnetProductId: magnet._id,
        offerProductId: offer._id,
        offerUrl: 'https://shop.example.com/course',
      })
    ).body;
    expect((await api.post(`/funnels/${funnel._id}/activate`, {})).status).toBe(200);
    const form = (
      await api.post('/forms', {
        name: 'Checklist',
        tags: ['from-form', 'checklist'],
        leadMagnetProductId: magnet._id,
        leadMagnetUrl: 'https://files.example.com/checklist.pdf',
        collectName: true,
      })
    ).body;

    const read = await pub.get(`/forms/public/${form._id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    expect(read.body).toMatchObject({ id: form._id, status: 'active', render: true, headline: form.headline, collectName: true });
    expect(read.body.name).toBeUndefined(); // the name is the creator's only
    expect(read.body.tags).toBeUndefined();

    expect((await pub.post(`/forms/public/${form._id}/view`, {})).status).toBe(200);
    expect((await pub.post(`/forms/public/${form._id}/view`, {})).status).toBe(200);

    const email = unique('reader');
    const first = await subscribe(form._id, { email: `  ${email.toUpperCase()} `, name: 'Rita' });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    expect(first.body).toEqual({ status: 'subscribed', leadMagnet: { name: 'Free checklist', url: 'https://files.example.com/checklist.pdf' } });
    const contact = await contactOf(api, email);
    expect(contact).toMatchObject({ email, source: 'form', status: 'subscribed', name: 'Rita' });
    expect(contact.tags).toEqual(expect.arrayContaining(['from-form', 'checklist', funnel.tag]));
    expect(contact.consent).toMatchObject({ source: 'form', optedInAt: expect.any(String) });
    expect(contact.consent.wording).toContain(form.headline);
    await settle();
    const leads = (await ctl.get(`/_local/events?accountId=${account.accountId}&mode=test&type=funnel.lead`)).body.events;
    expect(leads.map((e: any) => e.data.lead.email)).toEqual([email]);

    // The same address again: the same answer, nothing about its being known.
    const again = await subscribe(form._id, { email });
    expect(again.body).toEqual(first.body);

    const one = (await api.get(`/forms/${form._id}`)).body;
    expect(one.stats).toEqual({ views: 2, signups: 2, conversionRate: 100 });
    expect(one.daily).toHaveLength(30);
    expect(one.daily.at(-1)).toMatchObject({ views: 2, signups: 2 });
    expect(one.daily.slice(0, -1).every((d: any) => d.views === 0 && d.signups === 0)).toBe(true);

    expect((await subscribe(form._id, { email: 'not-an-email' })).body.field).toBe('email');
    expect((await pub.post(`/forms/public/${form._id}/subscribe`, 'not json', { 'content-type': 'text/plain' })).status).toBe(400);
  });

  it('honeypot and fast submits get the success answer and change nothing', async () => {
    await nextIpWindow();
    const api = account.test;
    const form = (await api.post('/forms', { name: 'Bots' })).body;
    for (const body of [{ company: 'ACME Inc' }, { elapsedMs: 300 }, { elapsedMs: null }]) {
      const email = unique('bot');
      const res = await subscribe(form._id, { email, ...body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'subscribed', leadMagnet: null });
      expect(await contactOf(api, email)).toBeUndefined();
    }
    expect((await api.get(`/forms/${form._id}`)).body.stats.signups).toBe(0);
  });

  it('double opt-in: a confirmation mail whose link confirms once; nothing stored before', async () => {
    await nextIpWindow();
    const api = account.test;
    const form = (await api.post('/forms', { name: 'DOI', doubleOptIn: true, tags: ['doi'] })).body;
    const email = unique('doi');
    const res = await subscribe(form._id, { email });
    expect(res.body).toEqual({ status: 'confirm_email' });
    expect(await contactOf(api, email)).toBeUndefined();
    const [mail] = await mails(email);
    expect(mail!.subject).toBe('Please confirm your subscription');
    const link = /href="([^"]+)"[^>]*>Confirm my subscription/.exec(mail!.html)![1]!.replace(/&amp;/g, '&');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(form.successHeadline);
    expect(await contactOf(api, email)).toMatchObject({ source: 'form', tags: ['doi'], consent: { source: 'form' } });
    expect((await api.get(`/forms/${form._id}`)).body.stats.signups).toBe(1);
    expect((await fetch(link)).status).toBe(404);
    expect((await api.get(`/forms/${form._id}`)).body.stats.signups).toBe(1);
    // A bot gets the double opt-in answer too, and no mail goes out.
    const bot = unique('doibot');
    expect((await subscribe(form._id, { email: bot, company: 'x' })).body).toEqual({ status: 'confirm_email' });
    expect(await mails(bot)).toEqual([]);
  });

  it('a paused form renders nothing and takes no signups', async () => {
    await nextIpWindow();
    const api = account.test;
    const form = (await api.post('/forms', { name: 'Paused', status: 'paused' })).body;
    expect((await pub.get(`/forms/public/${form._id}`)).body).toEqual({ id: form._id, status: 'paused', render: false });
    const email = unique('paused');
    expect((await subscribe(form._id, { email })).body.code).toBe('FORM_NOT_ACTIVE');
    expect(await contactOf(api, email)).toBeUndefined();
    await pub.post(`/forms/public/${form._id}/view`, {});
    expect((await api.get(`/forms/${form._id}`)).body.stats.views).toBe(0);
  });

  it('10 signups per 15 minutes per IP; the 11th answers 429 and changes nothing', async () => {
    await nextIpWindow();
    const api = account.test;
    const form = (await api.post('/forms', { name: 'Limited' })).body;
    for (let i = 0; i < 10; i++) expect((await subscribe(form._id, { email: unique(`ok${i}`) })).status).toBe(200);
    const email = unique('over');
    const refused = await subscribe(form._id, { email });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('SIGNUP_RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(await contactOf(api, email)).toBeUndefined();
    expect((await api.get(`/forms/${form._id}`)).body.stats.signups).toBe(10);
    await nextIpWindow();
    expect((await subscribe(form._id, { email })).status).toBe(200);
  });

  it('the signup limit slides: 10 at the end of one window leave none right after the boundary', async () => {
    await nextIpWindow();
    const form = (await account.test.post('/forms', { name: 'Sliding' })).body;
    // Two minutes before a 15-minute boundary.
    const now = new Date((await ctl.post('/_local/clock/advance', { seconds: 0 })).body.now).getTime();
    // (modulo a window: already inside those two minutes, wait for the next window's.)
    await ctl.post('/_local/clock/advance', { seconds: ((15 * 60_000 - (now % (15 * 60_000))) / 1000 - 120 + 900) % 900 });
    for (let i = 0; i < 10; i++) expect((await subscribe(form._id, { email: unique(`edge${i}`) })).status).toBe(200);
    // Just past the boundary a fixed window would admit ten more; the sliding estimate admits none.
    await ctl.post('/_local/clock/advance', { seconds: 150 });
    const early = await subscribe(form._id, { email: unique('early') });
    expect(early.status).toBe(429);
    expect(early.body.code).toBe('SIGNUP_RATE_LIMITED');
    // Retry-After says when the previous window has faded enough for one more (a tenth of it, 90 s in).
    expect(Number(early.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(early.headers.get('retry-after'))).toBeLessThanOrEqual(90);
    // Half-way through the window half of the ten have faded: five fit, the sixth does not.
    await ctl.post('/_local/clock/advance', { seconds: 7.5 * 60 - 30 });
    for (let i = 0; i < 5; i++) expect((await subscribe(form._id, { email: unique(`half${i}`) })).status).toBe(200);
    expect((await subscribe(form._id, { email: unique('sixth') })).status).toBe(429);
    expect((await account.test.get(`/forms/${form._id}`)).body.stats.signups).toBe(15);
  });

  it("isolation: another account or the other mode never reaches a form; public signups land in the form's own account and mode", async () => {
    await nextIpWindow();
    const other = await createTestAccount(runtime, 'tier2');
    const form = (await account.test.post('/forms', { name: 'Mine' })).body;
    for (const api of [other.test, other.live, account.live]) {
      expect((await api.get(`/forms/${form._id}`)).status).toBe(404);
      expect((await api.patch(`/forms/${form._id}`, { status: 'paused' })).status).toBe(404);
      expect((await api.delete(`/forms/${form._id}`)).status).toBe(404);
      expect((await api.get('/forms')).body.map((f: any) => f._id)).not.toContain(form._id);
    }
    const email = unique('iso');
    await subscribe(form._id, { email });
    expect(await contactOf(account.test, email)).toBeDefined();
    expect(await contactOf(account.live, email)).toBeUndefined();
    expect(await contactOf(other.test, email)).toBeUndefined();
    expect((await account.test.get(`/forms/${form._id}`)).body.status).toBe('active');
  });

  it('serves the embed script, the iframe page and the preview page', async () => {
    const form = (await account.test.post('/forms', { name: 'Assets' })).body;
    const js = await fetch(`${runtime.url}/forms/public/${form._id}/embed.js`);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect(await js.text()).toContain('/subscribe');
    for (const page of ['frame', 'preview']) {
      const res = await fetch(`${runtime.url}/forms/public/${form._id}/${page}`);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain(`${runtime.url}/forms/public/${form._id}/embed.js`);
      expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    }
  });
});
