import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { createProduct, openCheckout, pay } from '../support/commerce';
import { ApiClient, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';

let runtime: LocalRuntime;
let ctl: ApiClient;
beforeAll(async () => {
  runtime = await startTestRuntime();
  ctl = new ApiClient(runtime.url);
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);

/** Buys a product through the sandbox and answers the receipt token from the order's review link. */
async function buy(account: TestAccount, productId: string, email: string, extra: Record<string, unknown> = {}) {
  const session = await openCheckout(account, productId, extra);
  const paid = await pay(runtime, session.id, { email, firstName: 'Ann', country: 'DE' });
  await settle();
  const order = await account.test.get(`/orders/${paid.saleId}`);
  expect(order.status, order.text).toBe(200);
  const token = String(order.body.reviewPath ?? order.body.order?.reviewPath)
    .split('/')
    .pop()!;
  return { saleId: paid.saleId!, token };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const postForm = (path: string, fields: Record<string, string>) => ctl.post(path, form(fields), { 'content-type': 'application/x-www-form-urlencoded' });

describe('attribution survey settings', () => {
  it('reads defaults, validates, keeps ids across renames and gates enabling on Growth', async () => {
    const free = await createTestAccount(runtime, 'free');
    const initial = await free.test.get('/attribution-survey/settings');
    expect(initial.status).toBe(200);
    expect(initial.body.enabled).toBe(false);
    expect(initial.body.options.length).toBeGreaterThanOrEqual(2);

    const locked = await free.test.put('/attribution-survey/settings', { enabled: true });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
    expect(locked.body.details.requiredPlan).toBe('tier2');

    // Wording stays open on a lower plan.
    const worded = await free.test.put('/attribution-survey/settings', {
      question: 'Where did you find us?',
      options: [{ label: 'Podcast' }, { label: 'Blog', channel: 'other' }],
      enabled: false,
    });
    expect(worded.status, worded.text).toBe(200);
    expect(worded.body.options).toEqual([
      { id: 'podcast', label: 'Podcast', channel: null },
      { id: 'blog', label: 'Blog', channel: 'other' },
    ]);

    const renamed = await free.test.put('/attribution-survey/settings', {
      options: [{ id: 'podcast', label: 'A podcast' }, { label: 'Blog' }, { label: 'Other' }],
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.options.map((o: { id: string }) => o.id)).toEqual(['podcast', 'blog', 'other-2']);

    const bad = [
      { question: 'x'.repeat(121) },
      { options: [{ label: 'Only one' }] },
      { options: Array.from({ length: 13 }, (_, i) => ({ label: `O${i}` })) },
      { options: [{ label: 'x'.repeat(61) }, { label: 'b' }] },
      { options: [{ id: 'other', label: 'a' }, { label: 'b' }] },
      { options: [{ id: 'nope', label: 'a' }, { label: 'b' }] },
      { options: [{ label: 'a', channel: 'myspace' }, { label: 'b' }] },
    ];
    for (const body of bad) {
      const res = await free.test.put('/attribution-survey/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const after = await free.test.get('/attribution-survey/settings');
    expect(after.body.options.map((o: { id: string }) => o.id)).toEqual(['podcast', 'blog', 'other-2']);
  });
});

describe('buyers answer and the report counts them', () => {
  let account: TestAccount;
  let productId: string;

  beforeAll(async () => {
    account = await createTestAccount(runtime, 'tier3');
    productId = (await createProduct(account, { name: 'Course', price: 40 }))._id;
    const saved = await account.test.put('/attribution-survey/settings', {
      enabled: true,
      question: 'How did you hear about us?',
      options: [
        { label: 'Instagram', channel: 'instagram' },
        { label: 'YouTube', channel: 'youtube' },
      ],
      allowOther: true,
    });
    expect(saved.status, saved.text).toBe(200);
  });

  it('answers once through the public form, counts refunds out, and reports other texts', async () => {
    const a = await buy(account, productId, 'a@example.com');
    const b = await buy(account, productId, 'b@example.com');
    const c = await buy(account, productId, 'c@example.com');
    const d = await buy(account, productId, 'd@example.com');

    // The buyer's receipt carries the survey link of their own order (through click tracking).
    const receipt = ((await ctl.get('/_local/emails')).body.emails as { to: string; html: string }[]).find(
      (m) => m.to === 'a@example.com' && m.html.includes('where did you hear about us?'),
    );
    const href = /<a href="([^"]+)">where did you hear about us\?<\/a>/.exec(receipt?.html ?? '')?.[1];
    expect(href).toBeTruthy();
    const followed = await fetch(href!.replace(/&amp;/g, '&'), { redirect: 'manual' });
    expect(followed.headers.get('location')).toBe(`${runtime.url}/survey/${a.token}`);

    const page = await ctl.get(`/survey/${a.token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('How did you hear about us?');
    expect(page.text).not.toContain('<script');

    const answered = await postForm(`/survey/${a.token}`, { answer: 'instagram' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.text).toContain('Thank you');
    const twice = await postForm(`/survey/${a.token}`, { answer: 'youtube' });
    expect(twice.status).toBe(409);
    const twiceJson = await ctl.post(`/survey/${a.token}`, { answer: 'youtube' });
    expect(twiceJson.status).toBe(409);
    expect(twiceJson.body.code).toBe('ALREADY_ANSWERED');

    // JSON answers without a view first; bad answers change nothing.
    expect((await ctl.post(`/survey/${b.token}`, { answer: 'tiktok' })).status).toBe(400);
    expect((await ctl.post(`/survey/${b.token}`, { answer: 'other' })).status).toBe(400);
    expect((await ctl.post(`/survey/${b.token}`, { answer: 'other', otherText: '  My Friend ' })).status).toBe(200);
    expect((await ctl.post(`/survey/${c.token}`, { answer: 'instagram' })).status).toBe(200);
    // d sees the question and does not answer.
    expect((await ctl.get(`/survey/${d.token}`)).status).toBe(200);
    expect((await ctl.get(`/survey/not-a-real-token-0000000000`)).status).toBe(404);

    // The answer is on the order itself: the order read and the order list show it.
    expect((await account.test.get(`/orders/${a.saleId}`)).body.attribution).toEqual({ optionId: 'instagram', label: 'Instagram', channel: 'instagram' });
    expect((await account.test.get(`/orders/${b.saleId}`)).body.attribution).toEqual({ optionId: 'other', label: 'My Friend', channel: null });
    expect((await account.test.get(`/orders/${d.saleId}`)).body.attribution).toBeNull();
    const listed = new Map(((await account.test.get('/orders')).body as any[]).map((o) => [o._id, o.attribution]));
    expect(listed.get(a.saleId)).toEqual({ optionId: 'instagram', label: 'Instagram', channel: 'instagram' });
    expect(listed.get(d.saleId)).toBeNull();
    // Only this account and mode sees it.
    expect((await account.live.get(`/orders/${a.saleId}`)).status).toBe(404);

    let report = await account.test.get('/attribution-survey/report');
    expect(report.status, report.text).toBe(200);
    expect(report.body.totals).toEqual({ shown: 4, answered: 3, responseRate: 75, revenue: 120 });
    expect(report.body.options).toEqual([
      { id: 'instagram', label: 'Instagram', channel: 'instagram', answers: 2, share: 66.7, revenue: 80 },
      { id: 'youtube', label: 'YouTube', channel: 'youtube', answers: 0, share: 0, revenue: 0 },
    ]);
    expect(report.body.other).toEqual({ answers: 1, share: 33.3, revenue: 40, topAnswers: [{ answer: 'my friend', count: 1 }] });

    // c is refunded: it leaves every counter; a second delivery of the refund changes nothing.
    expect((await ctl.post(`/_local/sales/${c.saleId}/refund`, {})).status).toBe(200);
    await settle();
    report = await account.test.get('/attribution-survey/report');
    expect(report.body.totals).toEqual({ shown: 3, answered: 2, responseRate: 66.7, revenue: 80 });
    expect(report.body.options[0]).toMatchObject({ id: 'instagram', answers: 1, share: 50, revenue: 40 });
    expect(report.body.trackedLinks.locked).toBe(false);

    // d saw the question without answering; e is refunded before its buyer ever opens the page.
    const e = await buy(account, productId, 'e@example.com');
    await ctl.post(`/_local/sales/${d.saleId}/refund`, {});
    await ctl.post(`/_local/sales/${e.saleId}/refund`, {});
    await settle();
    expect((await ctl.get(`/survey/${e.token}`)).status).toBe(410);
    expect((await ctl.post(`/survey/${e.token}`, { answer: 'youtube' })).status).toBe(410);
    report = await account.test.get('/attribution-survey/report');
    expect(report.body.totals).toEqual({ shown: 2, answered: 2, responseRate: 100, revenue: 80 });

    // The live key sees live orders only.
    const live = await account.live.get('/attribution-survey/report');
    expect(live.body.totals).toEqual({ shown: 0, answered: 0, responseRate: 0, revenue: 0 });
  });

  it('validates the report range', async () => {
    expect((await account.test.get('/attribution-survey/report?startDate=2026-01-01&endDate=2027-01-02')).status).toBe(400);
    expect((await account.test.get('/attribution-survey/report?startDate=2026-01-01&endDate=2027-01-01')).status).toBe(200);
    expect((await account.test.get('/attribution-survey/report?startDate=2026-02-30')).status).toBe(400);
    expect((await account.test.get('/attribution-survey/report?startDate=2026-03-02&endDate=2026-03-01')).status).toBe(400);
    const old = await account.test.get('/attribution-survey/report?startDate=2020-01-01&endDate=2020-12-31');
    expect(old.body.totals.shown).toBe(0);
  });

  it('a closed survey asks nothing', async () => {
    const other = await createTestAccount(runtime, 'tier2');
    const p = (await createProduct(other, { name: 'Guide', price: 10 }))._id;
    const sale = await buy(other, p, 'e@example.com');
    expect((await ctl.get(`/survey/${sale.token}`)).status).toBe(410);
    expect((await ctl.post(`/survey/${sale.token}`, { answer: 'instagram' })).status).toBe(410);
  });
});

describe('tracked links', () => {
  it('creates, validates, lists by cursor, counts clicks and visitors, attributes a purchase, and deletes', async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const productId = (await createProduct(account, { name: 'Ebook', price: 25 }))._id;

    for (const body of [
      { channel: 'tiktok', targetUrl: 'javascript:alert(1)', name: 'x' },
      { channel: 'tiktok', targetUrl: 'ftp://example.com/', name: 'x' },
      { channel: 'tiktok', targetUrl: 'not a url', name: 'x' },
      { channel: 'myspace', targetUrl: 'https://shop.example.com/', name: 'x' },
      { channel: 'tiktok', targetUrl: 'https://shop.example.com/', name: '' },
    ]) {
      const res = await account.test.post('/links', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }

    const created = await account.test.post('/links', { channel: 'tiktok', targetUrl: 'https://shop.example.com/ebook?ref=bio', name: 'TikTok bio' });
    expect(created.status, created.text).toBe(201);
    const link = created.body;
    expect(link.stats).toEqual({ locked: false, clicks: 0, visitors: 0, sales: 0, revenue: 0 });
    expect(link.url).toBe(`${runtime.url}/l/${link.code}`);
    await account.test.post('/links', { channel: 'youtube', targetUrl: 'https://shop.example.com/', name: 'YT' });
    await account.test.post('/links', { channel: 'x', targetUrl: 'https://shop.example.com/', name: 'X' });

    const first = await account.test.get('/links?limit=2');
    expect(first.body.data.map((l: { name: string }) => l.name)).toEqual(['X', 'YT']);
    const second = await account.test.get(`/links?limit=2&after=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.data.map((l: { name: string }) => l.name)).toEqual(['TikTok bio']);
    expect(second.body.nextCursor).toBeNull();

    // Two clicks from one browser (the cookie comes back), one from another.
    const click1 = await fetch(`${runtime.url}/l/${link.code}`, { redirect: 'manual', headers: { 'user-agent': 'browser-one' } });
    expect(click1.status).toBe(302);
    const location = new URL(click1.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.example.com/ebook');
    expect(location.searchParams.get('ref')).toBe('bio');
    expect(location.searchParams.get('tl')).toBe(link.code);
    const cookie = click1.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^tlv=/);
    await fetch(`${runtime.url}/l/${link.code}`, { redirect: 'manual', headers: { cookie, 'user-agent': 'browser-one' } });
    await fetch(`${runtime.url}/l/${link.code}`, { redirect: 'manual', headers: { cookie: 'tlv=another-browser-000001' } });
    expect((await fetch(`${runtime.url}/l/nosuchcode0000`, { redirect: 'manual' })).status).toBe(404);

    // The shop passes tl into its checkout: the sale counts for TikTok.
    const session = await openCheckout(account, productId, { metadata: { trackedLink: location.searchParams.get('tl') } });
    const paid = await pay(runtime, session.id, { email: 'fan@example.com' });
    await settle();
    // An unrelated sale is not attributed.
    await pay(runtime, (await openCheckout(account, productId)).id, { email: 'other@example.com' });
    await settle();

    const read = await account.test.get(`/links/${link._id}`);
    expect(read.body.stats).toEqual({ locked: false, clicks: 3, visitors: 2, sales: 1, revenue: 25 });
    let report = await account.test.get('/attribution-survey/report');
    expect(report.body.trackedLinks).toEqual({ locked: false, channels: [{ channel: 'tiktok', clicks: 3, visitors: 2, sales: 1, revenue: 25 }] });

    // A refund takes the sale back out.
    await ctl.post(`/_local/sales/${paid.saleId}/refund`, {});
    await settle();
    report = await account.test.get('/attribution-survey/report');
    expect(report.body.trackedLinks.channels).toEqual([{ channel: 'tiktok', clicks: 3, visitors: 2, sales: 0, revenue: 0 }]);

    // Deleted: the short address stops, past stats stay in the report.
    expect((await account.test.delete(`/links/${link._id}`)).status).toBe(200);
    expect((await account.test.get(`/links/${link._id}`)).status).toBe(404);
    expect((await fetch(`${runtime.url}/l/${link.code}`, { redirect: 'manual' })).status).toBe(404);
    report = await account.test.get('/attribution-survey/report');
    expect(report.body.trackedLinks.channels[0].clicks).toBe(3);
  });

  it('locks stats below Pro', async () => {
    const growth = await createTestAccount(runtime, 'tier2');
    const created = await growth.test.post('/links', { channel: 'instagram', targetUrl: 'https://shop.example.com/', name: 'IG' });
    expect(created.status).toBe(201);
    expect(created.body.stats).toEqual({ locked: true });
    const report = await growth.test.get('/attribution-survey/report');
    expect(report.body.trackedLinks).toEqual({ locked: true, channels: [] });
  });
});

describe('isolation', () => {
  it('another account cannot read or delete a link, nor attribute a sale with its code, nor answer with its token', async () => {
    const owner = await createTestAccount(runtime, 'tier3');
    const intruder = await createTestAccount(runtime, 'tier3');
    const link = (await owner.test.post('/links', { channel: 'ads', targetUrl: 'https://shop.example.com/', name: 'Ads' })).body;
    expect((await intruder.test.get(`/links/${link._id}`)).status).toBe(404);
    expect((await intruder.test.delete(`/links/${link._id}`)).status).toBe(404);
    expect((await owner.live.get(`/links/${link._id}`)).status).toBe(404);
    expect((await intruder.test.get('/links')).body.data).toEqual([]);

    // The intruder's sale carrying the owner's code counts for nobody.
    const p = (await createProduct(intruder, { name: 'Thing', price: 9 }))._id;
    await intruder.test.put('/attribution-survey/settings', { enabled: true, options: [{ label: 'Ads', channel: 'ads' }, { label: 'Friend' }] });
    const sale = await buy(intruder, p, 'x@example.com', { metadata: { trackedLink: link.code } });
    expect((await owner.test.get(`/links/${link._id}`)).body.stats.sales).toBe(0);
    expect((await intruder.test.get('/attribution-survey/report')).body.trackedLinks.channels).toEqual([]);

    // The intruder's buyer answers the intruder's survey; the owner's report does not see it.
    await owner.test.put('/attribution-survey/settings', { enabled: true, options: [{ label: 'Ads', channel: 'ads' }, { label: 'Friend' }] });
    expect((await ctl.post(`/survey/${sale.token}`, { answer: 'ads' })).status).toBe(200);
    expect((await owner.test.get('/attribution-survey/report')).body.totals.answered).toBe(0);
    expect((await intruder.test.get('/attribution-survey/report')).body.totals.answered).toBe(1);
  });
});
