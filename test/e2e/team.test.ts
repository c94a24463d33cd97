import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, control, createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import { acceptInvite, inviteLink, joinTeam } from '../support/team';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const advance = (seconds: number) => control(runtime).post('/_local/clock/advance', { seconds });
const now = async () => new Date((await advance(0)).body.now).getTime();
const product = { name: 'Guide', price: 10 };

describe('team', () => {
  it('invites, accepts through the mailed link, and lists members, invites, teams and seats', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3', 'Owner@Example.com');
    const empty = await account.live.get('/team');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      members: [{ _id: 'owner', email: 'owner@example.com', role: 'owner', status: 'active', teamIds: [] }],
      invites: [],
      teams: [],
      seats: { limit: 10, used: 1, pending: 0 },
    });

    const team = await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] });
    expect(team.status).toBe(201);
    expect(team.body).toMatchObject({ name: 'Catalog', areas: ['products'] });
    expect((await account.live.post('/team/teams', { name: 'Bad', areas: ['products', 'billing'] })).status).toBe(400);

    const before = await now();
    const invited = await account.live.post('/team/invites', { email: 'Ann@Example.com', role: 'member', teamIds: [team.body._id] });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ invite: { email: 'ann@example.com', role: 'member', teamIds: [team.body._id] }, emailSent: true });
    const expiresIn = Date.parse(invited.body.invite.expiresAt) - before;
    expect(expiresIn).toBeGreaterThanOrEqual(7 * 86400_000 - 1000);
    expect(expiresIn).toBeLessThan(7 * 86400_000 + 5000);
    expect((await account.live.post('/team/invites', { email: 'x@example.com', role: 'member', teamIds: ['nope'] })).status).toBe(400);

    // 409s compare emails lower-cased.
    const again = await account.live.post('/team/invites', { email: 'ANN@example.com', role: 'admin' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_INVITED');
    const owner = await account.live.post('/team/invites', { email: 'OWNER@example.com', role: 'admin' });
    expect(owner.status).toBe(409);
    expect(owner.body.code).toBe('ALREADY_MEMBER');

    let listed = await account.live.get('/team');
    expect(listed.body.invites).toEqual([invited.body.invite]);
    expect(listed.body.seats).toEqual({ limit: 10, used: 1, pending: 1 });

    const link = await inviteLink(runtime, 'ann@example.com');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ann@example.com');
    const joined = await acceptInvite(runtime, link, 'Ann');
    expect(joined.status).toBe(303);
    expect(joined.token).toBeTruthy();
    const reused = await fetch(link);
    expect(reused.status).toBe(410);
    expect(await reused.text()).toContain('already accepted');

    listed = await account.live.get('/team');
    expect(listed.body.members.map((m: any) => [m.email, m.role, m.name])).toEqual([
      ['owner@example.com', 'owner', null],
      ['ann@example.com', 'member', 'Ann'],
    ]);
    expect(listed.body.members[1]).toMatchObject({ teamIds: [team.body._id], status: 'active' });
    expect(listed.body.invites).toEqual([]);
    expect(listed.body.seats).toEqual({ limit: 10, used: 2, pending: 0 });
    const dup = await account.live.post('/team/invites', { email: 'ann@EXAMPLE.com', role: 'member' });
    expect(dup.body.code).toBe('ALREADY_MEMBER');

    // Team writes need Growth; reading stays open.
    const free = await createTestAccount(runtime, 'free');
    expect((await free.live.get('/team')).status).toBe(200);
    const locked = await free.live.post('/team/invites', { email: 'a@example.com', role: 'member' });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
  });

  it('enforces roles and team areas on session tokens', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const catalog = (await account.live.post('/team/teams', { name: 'Catalog', areas: ['products'] })).body;
    const support = (await account.live.post('/team/teams', { name: 'Support', areas: ['orders'] })).body;
    const member = await joinTeam(runtime, account, 'member@example.com', 'member', [catalog._id]);
    const admin = await joinTeam(runtime, account, 'admin@example.com', 'admin');

    // A member: inside their areas...
    expect((await member.client.get('/products')).status).toBe(200);
    const created = await member.client.post('/products', product);
    expect(created.status).toBe(201);
    // ...and outside them.
    for (const [method, path] of [
      ['GET', '/orders'],
      ['GET', '/customers'],
      ['GET', '/webhooks'],
      ['GET', '/team'],
      ['GET', '/team/activity'],
      ['POST', '/team/teams'],
    ] as const) {
      const refused = await member.client.request(method, path, method === 'POST' ? { name: 'x', areas: [] } : undefined);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body.code).toMatch(/AREA_FORBIDDEN/);
    }
    const orders = await member.client.get('/orders');
    expect(orders.body.details).toEqual({ area: 'orders', role: 'member' });

    // An admin does everything but touch the owner role.
    expect((await admin.client.get('/orders')).status).toBe(200);
    expect((await admin.client.get('/team')).status).toBe(200);
    const promote = await admin.client.patch(`/team/members/${member.id}`, { role: 'owner' });
    expect(promote.status).toBe(403);
    expect(promote.body.code).toBe('ROLE_FORBIDDEN');
    const demoteOwner = await admin.client.patch('/team/members/owner', { role: 'admin' });
    expect(demoteOwner.body.code).toBe('ROLE_FORBIDDEN');
    const inviteOwner = await admin.client.post('/team/invites', { email: 'boss@example.com', role: 'owner' });
    expect(inviteOwner.body.code).toBe('ROLE_FORBIDDEN');
    expect((await admin.client.delete('/team/members/owner')).body.code).toBe('ROLE_FORBIDDEN');
    // Re-scoping the team applies at once.
    expect((await admin.client.patch(`/team/members/${member.id}`, { teamIds: [catalog._id, support._id] })).status).toBe(200);
    expect((await member.client.get('/orders')).status).toBe(200);
    expect((await admin.client.patch(`/team/teams/${catalog._id}`, { areas: ['developers'] })).body.areas).toEqual(['developers']);
    expect((await member.client.get('/products')).status).toBe(403);
    expect((await member.client.get('/webhooks')).status).toBe(200);
    // Deleting a team leaves the member's other teams.
    expect((await admin.client.delete(`/team/teams/${catalog._id}`)).status).toBe(200);
    expect((await account.live.get('/team')).body.members.find((m: any) => m._id === member.id).teamIds).toEqual([support._id]);
    expect((await member.client.get('/webhooks')).status).toBe(403);
    expect((await member.client.get('/orders')).status).toBe(200);

    // MCP tools are checked one by one.
    const mcp = await member.client.post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_products', arguments: {} } },
      { accept: 'application/json, text/event-stream' },
    );
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.isError).toBe(true);
    expect(mcp.body.result.content[0].text).toContain('AREA_FORBIDDEN');

    // Suspension and removal end the token's access at once.
    expect((await account.live.patch(`/team/members/${member.id}`, { status: 'suspended' })).body.status).toBe('suspended');
    const suspended = await member.client.get('/orders');
    expect(suspended.status).toBe(403);
    expect(suspended.body.code).toBe('MEMBER_SUSPENDED');
    await account.live.patch(`/team/members/${member.id}`, { status: 'active' });
    expect((await member.client.get('/orders')).status).toBe(200);
    expect((await account.live.delete(`/team/members/${member.id}`)).body).toEqual({ _id: member.id, deleted: true });
    expect((await member.client.get('/orders')).status).toBe(401);
    expect((await account.live.get('/team')).body.seats).toEqual({ limit: 10, used: 2, pending: 0 });
  });

  it('only owners change the owner role, and the store keeps its last owner', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const second = await joinTeam(runtime, account, 'second@example.com', 'admin');
    const last = await account.live.patch('/team/members/owner', { role: 'admin' });
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('LAST_OWNER');
    expect((await account.live.patch('/team/members/owner', { status: 'suspended' })).body.code).toBe('LAST_OWNER');
    expect((await account.live.delete('/team/members/owner')).body.code).toBe('LAST_OWNER');

    expect((await account.live.patch(`/team/members/${second.id}`, { role: 'owner' })).body.role).toBe('owner');
    // The new owner may hand the role around; the key still acts as the store's owner.
    expect((await second.client.patch('/team/members/owner', { role: 'admin' })).body.role).toBe('admin');
    const alone = await second.client.patch(`/team/members/${second.id}`, { role: 'member' });
    expect(alone.status).toBe(409);
    expect(alone.body.code).toBe('LAST_OWNER');
    expect((await account.live.delete(`/team/members/${second.id}`)).body.code).toBe('LAST_OWNER');
    expect((await account.live.get('/team')).body.members.map((m: any) => m.role)).toEqual(['admin', 'owner']);
  });

  it("refuses invites beyond the plan's seats with the counts, and cancel frees the seat", { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const one = await account.live.post('/team/invites', { email: 'one@example.com', role: 'admin' });
    await account.live.post('/team/invites', { email: 'two@example.com', role: 'admin' });
    const full = await account.live.post('/team/invites', { email: 'three@example.com', role: 'admin' });
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({ code: 'SEAT_LIMIT', details: { limit: 3, used: 1, pending: 2 } });

    const link = await inviteLink(runtime, 'one@example.com');
    expect((await account.live.delete(`/team/invites/${one.body.invite.id}`)).body).toEqual({ id: one.body.invite.id, canceled: true });
    expect((await account.live.delete(`/team/invites/${one.body.invite.id}`)).status).toBe(404);
    const canceled = await fetch(link);
    expect(canceled.status).toBe(410);
    expect(await canceled.text()).toContain('cancelled');
    expect((await acceptInvite(runtime, link)).status).toBe(410);
    expect((await account.live.post('/team/invites', { email: 'three@example.com', role: 'admin' })).status).toBe(201);
    expect((await account.live.get('/team')).body.seats).toEqual({ limit: 3, used: 1, pending: 2 });
  });

  it('holds the seat limit and the last owner under concurrent requests', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const racing = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((n) => account.live.post('/team/invites', { email: `${n}@example.com`, role: 'admin' })));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(2);
    expect(racing.filter((r) => r.status === 403 && r.body.code === 'SEAT_LIMIT')).toHaveLength(2);
    expect((await account.live.get('/team')).body.seats).toEqual({ limit: 3, used: 1, pending: 2 });

    const owners = await createTestAccount(runtime, 'tier3');
    const second = await joinTeam(runtime, owners, 'co@example.com', 'owner');
    const demotions = await Promise.all([
      owners.live.patch('/team/members/owner', { role: 'admin' }),
      owners.live.patch(`/team/members/${second.id}`, { role: 'admin' }),
    ]);
    expect(demotions.map((d) => d.status).sort()).toEqual([200, 409]);
    expect((await owners.live.get('/team')).body.members.filter((m: any) => m.role === 'owner')).toHaveLength(1);
  });

  it('allows 20 invites an hour per account, in a sliding hour: no second 20 just after the hour turns', { timeout: 120_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    // Five minutes before the top of an hour, so the 20 fall at the end of one window.
    const t = await now();
    // (modulo an hour: already inside those five minutes, wait for the next hour's.)
    await advance(((3_600_000 - (t % 3_600_000)) / 1000 - 300 + 3600) % 3600);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const invited = await account.live.post('/team/invites', { email: `p${i}@example.com`, role: 'admin' });
      expect(invited.status).toBe(201);
      ids.push(invited.body.invite.id);
    }
    const limited = await account.live.post('/team/invites', { email: 'p20@example.com', role: 'admin' });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('INVITE_RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await account.live.get('/team')).body.seats.pending).toBe(20);
    // Other accounts are not affected.
    const other = await createTestAccount(runtime, 'tier2');
    expect((await other.live.post('/team/invites', { email: 'p20@example.com', role: 'admin' })).status).toBe(201);
    // Seats are not what limits below: cancel 15 of the 20 (a cancel gives back no invite).
    for (const id of ids.slice(0, 15)) expect((await account.live.delete(`/team/invites/${id}`)).status).toBe(200);
    // Just into the next hour the last hour's 20 still weigh nearly whole: a fixed window would
    // admit 20 more here (the estimate admits none for the first three minutes).
    await advance(305);
    const early = await account.live.post('/team/invites', { email: 'p20@example.com', role: 'admin' });
    expect(early.status).toBe(429);
    expect(early.body.code).toBe('INVITE_RATE_LIMITED');
    // Half an hour later (30 minutes in) they weigh half: 10 more fit, the 11th does not.
    await advance(1800);
    for (let i = 0; i < 10; i++) expect((await account.live.post('/team/invites', { email: `q${i}@example.com`, role: 'admin' })).status).toBe(201);
    expect((await account.live.post('/team/invites', { email: 'q10@example.com', role: 'admin' })).body.code).toBe('INVITE_RATE_LIMITED');
    // Two hours on, the window is clear again.
    await advance(7200);
    expect((await account.live.post('/team/invites', { email: 'q10@example.com', role: 'admin' })).status).toBe(201);
  });

  it('resends a new link with 7 more days at most once a minute and 5 times; invites expire after 7 days', { timeout: 90_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const invited = await account.live.post('/team/invites', { email: 'late@example.com', role: 'admin' });
    const id = invited.body.invite.id;
    const first = await inviteLink(runtime, 'late@example.com');
    const soon = await account.live.post(`/team/invites/${id}/resend`);
    expect(soon.status).toBe(429);
    expect(soon.body.code).toBe('INVITE_RESEND_TOO_SOON');

    let expiresAt = invited.body.invite.expiresAt;
    for (let i = 1; i <= 5; i++) {
      await advance(61);
      const resent = await account.live.post(`/team/invites/${id}/resend`);
      expect(resent.status).toBe(200);
      expect(resent.body.emailSent).toBe(true);
      expect(Date.parse(resent.body.invite.expiresAt)).toBeGreaterThan(Date.parse(expiresAt));
      expiresAt = resent.body.invite.expiresAt;
    }
    await advance(61);
    const sixth = await account.live.post(`/team/invites/${id}/resend`);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe('INVITE_RESEND_LIMIT');
    // Only the newest link works.
    const replaced = await fetch(first);
    expect(replaced.status).toBe(410);
    expect(await replaced.text()).toContain('replaced');
    const newest = await inviteLink(runtime, 'late@example.com');
    expect((await fetch(newest)).status).toBe(200);

    // The first invite's original 7 days have passed: the resend's still hold.
    // (the last resend was 5 × 61 s after the invite; 6 × 61 s have passed.)
    await advance(7 * 86400 - 6 * 61 + 30);
    expect((await fetch(newest)).status).toBe(200);
    await advance(300);
    await settleWithRetries(runtime);
    const gone = await fetch(newest);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('expired');
    expect((await acceptInvite(runtime, newest)).status).toBe(410);
    const listed = await account.live.get('/team');
    expect(listed.body.invites).toEqual([]);
    expect(listed.body.seats).toEqual({ limit: 10, used: 1, pending: 0 });
    expect((await account.live.post(`/team/invites/${id}/resend`)).status).toBe(404);
    // The person can be invited again.
    expect((await account.live.post('/team/invites', { email: 'late@example.com', role: 'admin' })).status).toBe(201);

    const activity = (await account.live.get('/team/activity?limit=100')).body.activity;
    const expired = activity.find((e: any) => e.action === 'invite.expired');
    expect(expired).toMatchObject({ actor: { type: 'system' }, target: { type: 'invite', id, email: 'late@example.com' } });
    expect(activity.filter((e: any) => e.action === 'invite.resent')).toHaveLength(5);
  });

  it('logs team changes and every API write with actor, action, target and time, newest first', { timeout: 60_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const support = (await account.live.post('/team/teams', { name: 'Support', areas: ['products'] })).body;
    const member = await joinTeam(runtime, account, 'writer@example.com', 'member', [support._id]);
    const made = await member.client.post('/products', product);
    const mine = await account.live.post('/products', { name: 'Owner product', price: 5 });
    await account.live.post(`/products/update/${mine.body._id}`, { name: 'Renamed' });
    expect((await member.client.post('/webhooks', { url: 'https://example.com/h', events: ['sale'] })).status).toBe(403);

    const log = await account.live.get('/team/activity');
    expect(log.status).toBe(200);
    const entries = log.body.activity;
    expect(entries.map((e: any) => e.action)).toEqual(['updateProduct', 'createProduct', 'createProduct', 'invite.accepted', 'invite.created', 'team.created']);
    expect(entries[0]).toMatchObject({ actor: { type: 'owner_key' }, target: { type: 'Products', id: mine.body._id } });
    expect(entries[2]).toMatchObject({ actor: { type: 'member', memberId: member.id, email: 'writer@example.com' }, action: 'createProduct' });
    expect(entries[3]).toMatchObject({ actor: { type: 'member', memberId: member.id }, target: { type: 'member', id: member.id } });
    expect(entries[4]).toMatchObject({
      actor: { type: 'owner_key' },
      target: { type: 'invite', email: 'writer@example.com' },
      details: { role: 'member', teamIds: [support._id] },
    });
    for (let i = 1; i < entries.length; i++) expect(entries[i - 1]._id > entries[i]._id).toBe(true);
    expect(made.status).toBe(201);

    // Pages: before the last entry of the previous page.
    const page1 = await account.live.get('/team/activity?limit=2');
    expect(page1.body.activity.map((e: any) => e._id)).toEqual(entries.slice(0, 2).map((e: any) => e._id));
    const page2 = await account.live.get(`/team/activity?limit=2&before=${page1.body.nextBefore}`);
    expect(page2.body.activity.map((e: any) => e._id)).toEqual(entries.slice(2, 4).map((e: any) => e._id));
    expect((await account.live.get('/team/activity?limit=500')).status).toBe(400);
    expect((await account.live.get('/team/activity?before=yesterday')).status).toBe(400);

    // A refused write leaves no entry and changes nothing.
    const bad = await account.live.post('/products', { name: '', price: -1 });
    expect(bad.status).toBe(400);
    expect((await account.live.get('/team/activity?limit=1')).body.activity[0]._id).toBe(entries[0]._id);

    // The test mode has its own log.
    expect((await account.test.get('/team/activity')).body.activity).toEqual([]);
  });

  it("keeps one account's team invisible to another", { timeout: 60_000 }, async () => {
    const a = await createTestAccount(runtime, 'tier3');
    const b = await createTestAccount(runtime, 'tier3');
    const team = (await a.live.post('/team/teams', { name: 'All', areas: ['products', 'orders'] })).body;
    const member = await joinTeam(runtime, a, 'iso@example.com', 'member', [team._id]);
    const invite = (await a.live.post('/team/invites', { email: 'pending@example.com', role: 'admin' })).body.invite;
    const theirs = (await b.live.post('/products', { name: 'B only', price: 3 })).body;

    const seen = await b.live.get('/team');
    expect(seen.body.members.map((m: any) => m.email)).not.toContain('iso@example.com');
    expect(seen.body.invites).toEqual([]);
    expect(seen.body.teams).toEqual([]);
    expect((await b.live.patch(`/team/members/${member.id}`, { role: 'admin' })).status).toBe(404);
    expect((await b.live.delete(`/team/members/${member.id}`)).status).toBe(404);
    expect((await b.live.delete(`/team/invites/${invite.id}`)).status).toBe(404);
    expect((await b.live.post(`/team/invites/${invite.id}/resend`)).status).toBe(404);
    expect((await b.live.patch(`/team/teams/${team._id}`, { name: 'Mine' })).status).toBe(404);
    expect((await b.live.delete(`/team/teams/${team._id}`)).status).toBe(404);
    expect((await b.live.get('/team/activity')).body.activity.map((e: any) => e.action)).toEqual(['createProduct']);
    // The member's token reaches only their own store, and only its live mode.
    expect((await member.client.get(`/products/${theirs._id}`)).status).toBe(404);
    expect((await member.client.get('/products')).body.map((p: any) => p._id)).not.toContain(theirs._id);
    // The same team row in the test mode does not exist: the token names a live-mode member.
    expect((await a.test.get('/team')).body.members).toHaveLength(1);
    // A forged token (wrong secret) is refused.
    const [h, p] = member.token.split('.');
    expect((await new ApiClient(runtime.url, `${h}.${p}.forged`).get('/products')).status).toBe(401);
  });
});
