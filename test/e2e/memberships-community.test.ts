import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { control, createProduct } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { changeMember, requireMembership } from '../../shared/memberships/service';
import { productSource } from '../../shared/memberships/rules';
import { replyKeyPage } from '../../shared/memberships/community/repository';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const settle = () => settleWithRetries(runtime);

interface Club {
  account: TestAccount;
  id: string;
  productId: string;
  scope: { accountId: string; mode: 'test' };
}

async function club(name: string): Promise<Club> {
  const account = await createTestAccount(runtime, 'tier3');
  const product = await createProduct(account, { name: `${name} pass`, price: 10 });
  const membership = (await account.test.post('/memberships', { name, productIds: [product._id], productBuyersJoin: true })).body;
  return { account, id: membership._id, productId: product._id, scope: { accountId: account.accountId, mode: 'test' } };
}

/** Joins through the capability's own transition (what the sale consumer calls). */
async function join(c: Club, email: string, name: string, membershipId = c.id) {
  const record = await requireMembership(runtime.deps, c.scope, membershipId);
  await changeMember(runtime.deps, c.scope, record, {
    email,
    name,
    add: [productSource(c.productId, `ord-${email}`)],
    now: runtime.clock.now().toISOString(),
    reason: 'subscription_ended',
  });
}

async function leave(c: Club, email: string) {
  const record = await requireMembership(runtime.deps, c.scope, c.id);
  await changeMember(runtime.deps, c.scope, record, {
    email,
    name: null,
    remove: () => true,
    now: runtime.clock.now().toISOString(),
    reason: 'subscription_ended',
  });
}

/** The member-area link of the access mail the member received (the real path: the join consumer's mail). */
async function linkOf(email: string, membershipName: string) {
  await settle();
  const mails = ((await control(runtime).get('/_local/emails')).body.emails as { to: string; subject: string; html: string }[]).filter(
    (m) => m.to === email && m.subject === `Your access to ${membershipName}`,
  );
  expect(mails).toHaveLength(1);
  const url = /href="([^"]*\/member-area\/[0-9A-Za-z]{32})"/.exec(mails[0]!.html)?.[1];
  expect(url).toBeTruthy();
  return url!.replace(/^https?:\/\/[^/]+/, runtime.url);
}

const page = async (url: string) => {
  const res = await fetch(url, { redirect: 'manual' });
  return { status: res.status, html: await res.text(), headers: res.headers };
};
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

describe('membership community', () => {
  it('members write through the member area, the creator moderates through the API, replyCount counts visible replies', { timeout: 180_000 }, async () => {
    const c = await club('Makers');
    await join(c, 'alice@example.com', 'Alice Ada');
    await join(c, 'bob@example.com', 'Bob Bo');
    const alice = await linkOf('alice@example.com', 'Makers');
    const bob = await linkOf('bob@example.com', 'Makers');
    expect(alice).not.toBe(bob);

    // Pages: strict CSP, no referrer, a form with the member's CSRF secret.
    const home = await page(alice);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toMatch(/default-src 'none'; style-src 'nonce-[0-9A-Za-z]+'/);
    expect(home.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(home.headers.get('referrer-policy')).toBe('no-referrer');
    const community = await page(`${alice}/community`);
    const csrf = csrfOf(community.html);
    expect(csrf).toHaveLength(32);

    // Forms without the secret, with another member's secret, or from a foreign origin change nothing.
    expect((await form(`${alice}/community`, { title: 'No csrf', body: 'x' })).status).toBe(403);
    expect((await form(`${alice}/community`, { csrf: csrfOf((await page(`${bob}/community`)).html), title: 'Wrong csrf', body: 'x' })).status).toBe(403);
    expect((await form(`${alice}/community`, { csrf, title: 'Foreign', body: 'x' }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await c.account.test.get(`/memberships/${c.id}/threads`)).body.data).toHaveLength(0);

    const started = await form(`${alice}/community`, { csrf, title: 'Show your <b>bench</b>', body: 'Mine is <script>alert(1)</script> tidy' });
    expect(started.status).toBe(303);
    const threadUrl = started.headers.get('location')!;
    const threadId = threadUrl.split('/').pop()!;
    const threadPage = await page(threadUrl.replace(/^https?:\/\/[^/]+/, runtime.url));
    expect(threadPage.html).toContain('Show your &lt;b&gt;bench&lt;/b&gt;');
    expect(threadPage.html).toContain('&lt;script&gt;');
    expect(threadPage.html).not.toContain('alice@example.com');
    expect(threadPage.html).toContain('Alice Ada');

    // Bob replies through his own link; the creator replies through the API.
    const bobCsrf = csrfOf((await page(`${bob}/community/${threadId}`)).html);
    expect((await form(`${bob}/community/${threadId}/replies`, { csrf: bobCsrf, body: 'Nice bench, Alice' })).status).toBe(303);
    const creatorReply = await c.account.test.post(`/memberships/${c.id}/threads/${threadId}/replies`, { body: 'Lovely, both of you' });
    expect(creatorReply.status).toBe(201);
    expect(creatorReply.body.author).toMatchObject({ role: 'creator', email: expect.stringMatching(/^creator.*@example\.com$/) });
    const creatorEmail = creatorReply.body.author.email;

    let thread = (await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).body;
    expect(thread).toMatchObject({
      title: 'Show your <b>bench</b>',
      author: { email: 'alice@example.com', name: 'Alice Ada', role: 'member' },
      replyCount: 2,
      hidden: false,
    });
    expect(thread.replies.data.map((r: any) => r.author.email)).toEqual(['bob@example.com', creatorEmail]);
    const bobReplyId = thread.replies.data[0]._id;

    // Hiding a reply: gone for members, kept for the creator, not counted; showing it again counts it.
    const hidden = await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}/replies/${bobReplyId}`, { hidden: true });
    expect(hidden.body).toMatchObject({ hidden: true });
    thread = (await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).body;
    expect(thread.replyCount).toBe(1);
    expect(thread.replies.data).toHaveLength(2);
    expect((await page(`${alice}/community/${threadId}`)).html).not.toContain('Nice bench');
    // Repeating the same moderation changes nothing.
    await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}/replies/${bobReplyId}`, { hidden: true });
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).body.replyCount).toBe(1);
    await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}/replies/${bobReplyId}`, { hidden: false });
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).body.replyCount).toBe(2);
    expect((await page(`${alice}/community/${threadId}`)).html).toContain('Nice bench');

    // Pin: a later thread by the creator, then pin Alice's: pinned first.
    const later = (await c.account.test.post(`/memberships/${c.id}/threads`, { title: 'Weekly check-in', body: 'How is it going?' })).body;
    expect((await c.account.test.get(`/memberships/${c.id}/threads`)).body.data.map((t: any) => t._id)).toEqual([later._id, threadId]);
    expect((await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { pinned: true })).body.pinned).toBe(true);
    expect((await c.account.test.get(`/memberships/${c.id}/threads`)).body.data.map((t: any) => t._id)).toEqual([threadId, later._id]);

    // Lock: members cannot reply, the creator still can.
    await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { locked: true });
    const lockedPage = await page(`${bob}/community/${threadId}`);
    expect(lockedPage.html).toContain('locked');
    expect(lockedPage.html).not.toContain('name="body"');
    expect((await form(`${bob}/community/${threadId}/replies`, { csrf: bobCsrf, body: 'Sneaky' })).status).toBe(409);
    expect((await c.account.test.post(`/memberships/${c.id}/threads/${threadId}/replies`, { body: 'Closing this one' })).status).toBe(201);
    await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { locked: false });

    // Hide a thread (the spec's PATCH { hidden }): it vanishes for members, the creator still sees it.
    const hiddenThread = await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { hidden: true });
    expect(hiddenThread.status).toBe(200);
    expect(hiddenThread.body).toMatchObject({ hidden: true, pinned: true, replyCount: 3 });
    const memberList = await page(`${alice}/community`);
    expect(memberList.html).not.toContain('bench');
    expect(memberList.html).toContain('Weekly check-in');
    expect((await page(`${alice}/community/${threadId}`)).status).toBe(404);
    expect((await form(`${bob}/community/${threadId}/replies`, { csrf: bobCsrf, body: 'Still here?' })).status).toBe(404);
    expect((await c.account.test.get(`/memberships/${c.id}/threads`)).body.data.map((t: any) => t._id)).toContain(threadId);
    await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { hidden: false });
    expect((await page(`${alice}/community`)).html).toContain('bench');

    // Bad input: a clear 400 and nothing changes.
    expect((await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, {})).status).toBe(400);
    expect((await c.account.test.patch(`/memberships/${c.id}/threads/${threadId}`, { hidden: 'yes' })).status).toBe(400);
    expect((await c.account.test.post(`/memberships/${c.id}/threads`, { title: '', body: 'x' })).status).toBe(400);
    expect((await c.account.test.post('/memberships/members/ban', { email: 'not-an-email' })).status).toBe(400);

    // Deleting a reply moves the count; deleting the thread removes it and, after, its replies.
    expect((await c.account.test.delete(`/memberships/${c.id}/threads/${threadId}/replies/${bobReplyId}`)).body).toEqual({ _id: bobReplyId, deleted: true });
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).body.replyCount).toBe(2);
    expect((await c.account.test.delete(`/memberships/${c.id}/threads/${threadId}`)).status).toBe(200);
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${threadId}`)).status).toBe(404);
    await settle();
    expect((await replyKeyPage(runtime.deps.store, c.scope, threadId, undefined)).keys).toHaveLength(0);

    // Plan gate: writing as the creator needs Pro; moderation does not.
    const free = await createTestAccount(runtime, 'free');
    const locked = await free.test.post(`/memberships/${c.id}/threads`, { title: 'x', body: 'y' });
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({ code: 'FEATURE_LOCKED', details: { requiredPlan: 'tier3' } });
    expect((await free.test.post('/memberships/members/ban', { email: 'someone@example.com' })).status).toBe(200);

    // Leaving revokes the link: refused at once (403; 404 if the stream has already processed the
    // leave, which may be done before the next request), unknown once the leave is processed.
    await leave(c, 'alice@example.com');
    expect([403, 404]).toContain((await page(alice)).status);
    await settle();
    expect((await page(alice)).status).toBe(404);
  });

  it('replies page with a cursor through a long thread, members and creator alike', { timeout: 120_000 }, async () => {
    const c = await club('Long talks');
    await join(c, 'carol@example.com', 'Carol');
    const carol = await linkOf('carol@example.com', 'Long talks');
    const thread = (await c.account.test.post(`/memberships/${c.id}/threads`, { title: 'Roll call', body: 'Say hi' })).body;
    const REPLIES = 120;
    for (let i = 0; i < REPLIES; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => c.account.test.post(`/memberships/${c.id}/threads/${thread._id}/replies`, { body: `hi #${i + j}` })),
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = (await c.account.test.get(`/memberships/${c.id}/threads/${thread._id}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`))
        .body;
      expect(res.replyCount).toBe(REPLIES);
      seen.push(...res.replies.data.map((r: any) => r._id));
      cursor = res.replies.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(REPLIES);
    expect([...seen].sort()).toEqual(seen);
    // The member page shows the first 50 and links to the next page.
    const first = await page(`${carol}/community/${thread._id}`);
    expect(first.html.match(/class="item reply"/g)).toHaveLength(50);
    const older = /href="([^"]*\?cursor=[^"]+)"/
      .exec(first.html)![1]!
      .replace(/&amp;/g, '&')
      .replace(/^https?:\/\/[^/]+/, runtime.url);
    expect((await page(older)).html.match(/class="item reply"/g)).toHaveLength(50);
  });

  it('a ban refuses the author in every community of the creator and hides what they wrote; unban lets them back', { timeout: 180_000 }, async () => {
    const c = await club('Gardeners');
    const record2 = (await c.account.test.post('/memberships', { name: 'Seed swap', productIds: [c.productId], productBuyersJoin: true })).body;
    await join(c, 'troll@example.com', 'Troll');
    await join(c, 'troll@example.com', 'Troll', record2._id);
    await join(c, 'dana@example.com', 'Dana');
    const troll = await linkOf('troll@example.com', 'Gardeners');
    const trollSwap = await linkOf('troll@example.com', 'Seed swap');
    const dana = await linkOf('dana@example.com', 'Gardeners');

    const trollCsrf = csrfOf((await page(`${troll}/community`)).html);
    const t1 = (await form(`${troll}/community`, { csrf: trollCsrf, title: 'Buy my pills', body: 'spam' })).headers.get('location')!.split('/').pop()!;
    const good = (await c.account.test.post(`/memberships/${c.id}/threads`, { title: 'Tomatoes', body: 'When to plant?' })).body;
    const danaCsrf = csrfOf((await page(`${dana}/community/${good._id}`)).html);
    await form(`${dana}/community/${good._id}/replies`, { csrf: danaCsrf, body: 'April' });
    await form(`${troll}/community/${good._id}/replies`, { csrf: trollCsrf, body: 'pills pills' });
    await form(`${troll}/community/${good._id}/replies`, { csrf: trollCsrf, body: 'more pills' });
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${good._id}`)).body.replyCount).toBe(3);

    const ban = await c.account.test.post('/memberships/members/ban', { email: 'Troll@Example.com', hideContent: true });
    expect(ban.status).toBe(200);
    expect(ban.body).toMatchObject({ email: 'troll@example.com', banned: true, hideContent: true });
    // Refused at once in both communities; the other member is untouched.
    expect((await page(troll)).status).toBe(403);
    expect((await page(trollSwap)).status).toBe(403);
    expect((await form(`${troll}/community/${good._id}/replies`, { csrf: trollCsrf, body: 'after ban' })).status).toBe(403);
    expect((await page(dana)).status).toBe(200);

    await settle();
    const spam = (await c.account.test.get(`/memberships/${c.id}/threads/${t1}`)).body;
    expect(spam).toMatchObject({ hidden: true, author: { email: 'troll@example.com' } });
    const tomatoes = (await c.account.test.get(`/memberships/${c.id}/threads/${good._id}`)).body;
    expect(tomatoes.replyCount).toBe(1);
    expect(tomatoes.replies.data.filter((r: any) => r.hidden).map((r: any) => r.author.email)).toEqual(['troll@example.com', 'troll@example.com']);
    const danaView = await page(`${dana}/community/${good._id}`);
    expect(danaView.html).toContain('April');
    expect(danaView.html).not.toContain('pills');
    expect((await page(`${dana}/community`)).html).not.toContain('Buy my pills');

    // Unban: access again; content hidden by the ban stays hidden.
    expect((await c.account.test.post('/memberships/members/unban', { email: 'troll@example.com' })).body).toEqual({
      email: 'troll@example.com',
      banned: false,
    });
    expect((await page(troll)).status).toBe(200);
    expect((await c.account.test.get(`/memberships/${c.id}/threads/${t1}`)).body.hidden).toBe(true);
    expect((await c.account.test.post('/memberships/members/unban', { email: 'troll@example.com' })).status).toBe(404);
    expect(record2.slug).toBe('seed-swap');
  });

  it("isolation: another account's or mode's membership, thread, reply and member ids answer 404", { timeout: 120_000 }, async () => {
    const a = await club('Owners');
    await join(a, 'erin@example.com', 'Erin');
    const erin = await linkOf('erin@example.com', 'Owners');
    const thread = (await a.account.test.post(`/memberships/${a.id}/threads`, { title: 'Private', body: 'Only for Owners' })).body;
    const reply = (await a.account.test.post(`/memberships/${a.id}/threads/${thread._id}/replies`, { body: 'secret' })).body;
    const b = await club('Others');

    for (const client of [b.account.test, a.account.live]) {
      expect((await client.get(`/memberships/${a.id}/threads`)).status).toBe(404);
      expect((await client.get(`/memberships/${a.id}/threads/${thread._id}`)).status).toBe(404);
      expect((await client.patch(`/memberships/${a.id}/threads/${thread._id}`, { hidden: true })).status).toBe(404);
      expect((await client.delete(`/memberships/${a.id}/threads/${thread._id}`)).status).toBe(404);
      expect((await client.patch(`/memberships/${a.id}/threads/${thread._id}/replies/${reply._id}`, { hidden: true })).status).toBe(404);
      expect((await client.delete(`/memberships/${a.id}/threads/${thread._id}/replies/${reply._id}`)).status).toBe(404);
      expect((await client.get(`/memberships/${a.id}/members`)).status).toBe(404);
    }
    // A thread id under the caller's own membership: still 404.
    expect((await b.account.test.get(`/memberships/${b.id}/threads/${thread._id}`)).status).toBe(404);
    expect((await b.account.test.patch(`/memberships/${b.id}/threads/${thread._id}`, { hidden: true })).status).toBe(404);
    expect((await b.account.test.post(`/memberships/${b.id}/threads/${thread._id}/replies`, { body: 'x' })).status).toBe(404);
    // Another account's ban does not touch this account's member.
    await b.account.test.post('/memberships/members/ban', { email: 'erin@example.com', hideContent: true });
    await settle();
    expect((await page(erin)).status).toBe(200);
    expect((await a.account.test.get(`/memberships/${a.id}/threads/${thread._id}`)).body.hidden).toBe(false);
    // A member's link reaches only its own membership's threads; a guessed token is unknown.
    const other = (await b.account.test.post(`/memberships/${b.id}/threads`, { title: 'Theirs', body: 'x' })).body;
    expect((await page(`${erin}/community/${other._id}`)).status).toBe(404);
    expect((await page(`${runtime.url}/member-area/${'A'.repeat(32)}`)).status).toBe(404);
    expect((await page(`${runtime.url}/member-area/short`)).status).toBe(404);
  });
});
