import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import { advanceDays, createOffer, createProduct, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { SANDBOX_NOTIFICATION_SECRET, sign } from '../../shared/adapters/processor-sandbox/signing';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

async function subscribe(account: TestAccount, offerId: string, email: string) {
  const session = await openCheckout(account, offerId);
  const paid = await pay(runtime, session.id, { email, firstName: 'Sam', lastName: 'Roe' });
  return paid.subscriberId!;
}

async function members(account: TestAccount, id: string, query = '') {
  await settleWithRetries(runtime);
  const res = await account.test.get(`/memberships/${id}/members${query}`);
  expect(res.status).toBe(200);
  return res.body as {
    data: { email: string; name: string | null; status: string; leftReason: string | null }[];
    counts: { all: number; active: number; ended: number };
    nextCursor: string | null;
  };
}

const memberEvents = async (account: TestAccount, type: 'member.joined' | 'member.left') => events(runtime, account, type);

describe('memberships', () => {
  it('creates, validates, gates by plan, lists, updates, archives and reopens', { timeout: 120_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const offer = await createOffer(account, { name: 'Club', price: 9, frequency: 'monthly' });
    const product = await createProduct(account, { name: 'Guide', price: 19 });

    const created = await account.test.post('/memberships', { name: 'Inner Circle!', offerIds: [offer._id], productIds: [product._id] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Inner Circle!',
      slug: 'inner-circle',
      offerIds: [offer._id],
      productIds: [product._id],
      status: 'active',
      communityEnabled: true,
      testMode: true,
    });
    const id = created.body._id;
    const second = await account.test.post('/memberships', { name: 'Inner circle', offerIds: [] });
    expect(second.body.slug).toBe('inner-circle-2');

    // Ids must be the caller's and of the key's mode.
    const liveOffer = (await account.live.post('/subscriptions', { name: 'Live club', price: 9, frequency: 'monthly' })).body;
    const wrongMode = await account.test.post('/memberships', { name: 'X', offerIds: [liveOffer._id] });
    expect(wrongMode.status).toBe(400);
    expect(wrongMode.text).toContain('offerIds.0');
    expect((await account.test.post('/memberships', { name: 'X', productIds: [offer._id] })).status).toBe(400);
    expect((await account.test.post('/memberships', { name: '' })).status).toBe(400);
    expect((await account.test.get('/memberships')).body).toHaveLength(2);

    const renamed = await account.test.patch(`/memberships/${id}`, { name: 'Insiders', postEmailsEnabled: false });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Insiders', slug: 'insiders', postEmailsEnabled: false });

    // Plan gates: editing needs Pro, switching off and archiving do not.
    const free = await createTestAccount(runtime, 'free');
    const locked = await free.test.post('/memberships', { name: 'Nope' });
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({ code: 'FEATURE_LOCKED', details: { requiredPlan: 'tier3' } });

    const archived = await account.test.post(`/memberships/${id}/archive`, {});
    expect(archived.body).toMatchObject({ status: 'archived' });
    expect((await account.test.get('/memberships?status=archived')).body.map((m: any) => m._id)).toEqual([id]);
    expect((await account.test.patch(`/memberships/${id}`, { name: 'Again' })).status).toBe(409);
    expect((await account.test.post(`/memberships/${id}/reopen`, {})).body).toMatchObject({ status: 'active', archivedAt: null });
  });

  it('a subscriber of a chosen offer becomes an active member once; cancellation ends them at the period end', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offer = await createOffer(account, { name: 'Weekly club', price: 5, frequency: 'weekly' });
    const other = await createOffer(account, { name: 'Other', price: 5, frequency: 'weekly' });
    const early = await subscribe(account, offer._id, 'Early@Example.com');
    const membership = (await account.test.post('/memberships', { name: 'Club', offerIds: [offer._id] })).body;

    // Creating the membership joins the existing live subscriber.
    let list = await members(account, membership._id);
    expect(list.data).toEqual([expect.objectContaining({ email: 'early@example.com', name: 'Sam Roe', status: 'active' })]);

    const sub = await subscribe(account, offer._id, 'late@example.com');
    await subscribe(account, other._id, 'outsider@example.com');
    list = await members(account, membership._id, '?status=active');
    expect(list.data.map((m) => m.email)).toEqual(['early@example.com', 'late@example.com']);
    expect(list.counts).toEqual({ all: 2, active: 2, ended: 0 });

    const joined = await memberEvents(account, 'member.joined');
    expect(joined).toHaveLength(2);
    const lateJoin = joined.find((e) => e.data.member.email === 'late@example.com')!;
    expect(Object.keys(lateJoin.data)).toEqual(['membership', 'member', 'joinedAt']);
    expect(lateJoin.data).toEqual({
      membership: { id: membership._id, name: 'Club', slug: 'club' },
      member: { email: 'late@example.com', name: 'Sam Roe' },
      joinedAt: expect.any(String),
    });

    // A duplicated processor notification changes nothing.
    const detail = (await account.test.get(`/subscriptions/subscribers/${sub}`)).body;
    const body = JSON.stringify({
      id: 'ntf_mbrdup00000000000000001',
      type: 'charge.succeeded',
      created: Math.floor(runtime.clock.nowMs() / 1000),
      accountId: account.accountId,
      mode: 'test',
      data: {
        membershipId: detail.membershipId,
        billingReason: 'renewal',
        recovered: false,
        payment: { id: 'pay_mbrdup00000000000000001', amountCents: 500, currency: 'USD', planId: 'plan_x' },
        paymentMethod: detail.paymentMethod,
        membership: { status: 'active', currentPeriodStart: detail.currentPeriodStart, currentPeriodEnd: detail.currentPeriodEnd },
      },
    });
    const signature = () => sign(SANDBOX_NOTIFICATION_SECRET, Math.floor(runtime.clock.nowMs() / 1000), body);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${runtime.url}/processor/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-processor-signature': signature() },
        body,
      });
      expect(res.status).toBe(200);
    }
    expect(await memberEvents(account, 'member.joined')).toHaveLength(2);

    // Cancel at period end keeps the member until the period ends.
    expect((await account.test.post(`/subscriptions/${sub}/cancel`, {})).status).toBe(200);
    list = await members(account, membership._id, '?q=late');
    expect(list.data).toEqual([expect.objectContaining({ email: 'late@example.com', status: 'active' })]);
    expect(await memberEvents(account, 'member.left')).toHaveLength(0);

    await advanceDays(runtime, 8);
    list = await members(account, membership._id, '?status=ended');
    expect(list.data).toEqual([expect.objectContaining({ email: 'late@example.com', status: 'ended', leftReason: 'subscription_ended' })]);
    expect(list.counts).toEqual({ all: 2, active: 1, ended: 1 });
    const left = await memberEvents(account, 'member.left');
    expect(left).toHaveLength(1);
    expect(Object.keys(left[0]!.data)).toEqual(['membership', 'member', 'joinedAt', 'leftAt', 'reason']);
    expect(left[0]!.data).toMatchObject({ member: { email: 'late@example.com' }, reason: 'subscription_ended' });

    // Search by name, pagination by cursor.
    expect((await members(account, membership._id, '?q=sam')).data).toHaveLength(2);
    const first = await members(account, membership._id, '?limit=1');
    expect(first.data).toHaveLength(1);
    const next = await members(account, membership._id, `?limit=1&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(next.data[0]!.email).not.toBe(first.data[0]!.email);
    expect((await members(account, membership._id, '?limit=1&page=2')).data).toEqual(next.data);

    // Archiving fires membership_closed for every active member; the ended one stays ended.
    await account.test.post(`/memberships/${membership._id}/archive`, {});
    list = await members(account, membership._id);
    expect(list.counts).toEqual({ all: 2, active: 0, ended: 2 });
    const closed = (await memberEvents(account, 'member.left')).filter((e) => e.data.reason === 'membership_closed');
    expect(closed.map((e) => e.data.member.email)).toEqual(['early@example.com']);

    // Reopening joins the live subscriber again; changing offers leaves them with membership_changed.
    await account.test.post(`/memberships/${membership._id}/reopen`, {});
    expect((await members(account, membership._id, '?status=active')).data.map((m) => m.email)).toEqual(['early@example.com']);
    await account.test.patch(`/memberships/${membership._id}`, { offerIds: [other._id] });
    list = await members(account, membership._id, '?status=active');
    expect(list.data.map((m) => m.email)).toEqual(['outsider@example.com']);
    const changed = (await memberEvents(account, 'member.left')).filter((e) => e.data.reason === 'membership_changed');
    expect(changed.map((e) => e.data.member.email)).toEqual(['early@example.com']);
  });

  it('members are the subscribers of its offers (the spec); buyers of a listed product join only when productBuyersJoin is on', {
    timeout: 120_000,
  }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const product = await createProduct(account, { name: 'Course', price: 30 });
    const plain = (await account.test.post('/memberships', { name: 'Course included', productIds: [product._id] })).body;
    expect(plain.productBuyersJoin).toBe(false);
    const wide = (await account.test.post('/memberships', { name: 'Course club', productIds: [product._id], productBuyersJoin: true })).body;
    expect(wide.productBuyersJoin).toBe(true);
    const session = await openCheckout(account, product._id);
    await pay(runtime, session.id, { email: 'buyer@example.com', firstName: 'Bo', lastName: 'Buyer' });
    const list = await members(account, wide._id);
    expect(list.data).toEqual([expect.objectContaining({ email: 'buyer@example.com', name: 'Bo Buyer', status: 'active' })]);
    // A one-time buyer is no lifetime member of a membership that keeps to its offers.
    expect((await members(account, plain._id)).data).toEqual([]);
    expect((await memberEvents(account, 'member.joined')).filter((e) => e.data.membership.id === plain._id)).toEqual([]);
    // Switching it off takes the product buyers out (membership_changed); only Pro may switch it on.
    const off = await account.test.patch(`/memberships/${wide._id}`, { productBuyersJoin: false });
    expect(off.body.productBuyersJoin).toBe(false);
    await settleWithRetries(runtime);
    expect((await members(account, wide._id)).data).toEqual([expect.objectContaining({ email: 'buyer@example.com', status: 'ended' })]);
    const growth = await createTestAccount(runtime, 'tier2');
    expect((await growth.test.post('/memberships', { name: 'G', productBuyersJoin: true })).body.code).toBe('FEATURE_LOCKED');
  });

  it('isolates accounts and modes', { timeout: 120_000 }, async () => {
    const owner = await createTestAccount(runtime, 'tier3');
    const stranger = await createTestAccount(runtime, 'tier3');
    const offer = await createOffer(owner, { name: 'Mine', price: 5, frequency: 'monthly' });
    const id = (await owner.test.post('/memberships', { name: 'Mine', offerIds: [offer._id] })).body._id;
    for (const other of [owner.live, stranger.test, stranger.live]) {
      expect((await other.get(`/memberships/${id}`)).status).toBe(404);
      expect((await other.get(`/memberships/${id}/members`)).status).toBe(404);
      expect((await other.patch(`/memberships/${id}`, { name: 'Theirs' })).status).toBe(404);
      expect((await other.post(`/memberships/${id}/archive`, {})).status).toBe(404);
      expect((await other.get('/memberships')).body).toEqual([]);
    }
    // Another account's offer cannot be attached.
    expect((await stranger.test.post('/memberships', { name: 'Steal', offerIds: [offer._id] })).status).toBe(400);
    expect((await owner.test.get(`/memberships/${id}`)).body.name).toBe('Mine');
  });
});
