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
const uniq = () => Math.random().toString(36).slice(2, 8);

async function addContact(account: TestAccount, email: string, extra: Record<string, unknown> = {}) {
  const res = await account.test.post('/newsletters/subscribers', { email, ...extra });
  if (res.status !== 201) throw new Error(`contact: ${res.status} ${res.text}`);
  return res.body as { _id: string };
}

async function buy(account: TestAccount, productId: string, email: string, country = 'DE') {
  const session = await openCheckout(account, productId);
  await pay(runtime, session.id, { email, firstName: 'Ann', lastName: 'Lee', country });
}

const emailsOf = (rows: { email: string }[]) => rows.map((r) => r.email).sort();

async function allMembers(account: TestAccount, id: string, limit: number) {
  const out: string[] = [];
  let after: string | undefined;
  for (let i = 0; i < 50; i++) {
    const res = await account.test.get(`/newsletters/segments/${id}/subscribers?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    out.push(...res.body.data.map((c: { email: string }) => c.email));
    if (!res.body.nextCursor) return out.sort();
    after = res.body.nextCursor;
  }
  throw new Error('no end');
}

describe('segments over real contacts and purchases', () => {
  let account: TestAccount;
  let guide: string;
  let course: string;
  const d = uniq();
  const buyerA = `buyer-a-${d}@example.com`; // bought guide + course, DE
  const buyerB = `buyer-b-${d}@example.com`; // bought guide, FR
  const formFan = `form-${d}@example.com`; // form signup, tag fan
  const apiVip = `api-${d}@example.com`; // api, tag vip
  const old = `old-${d}@example.com`; // no source given -> api; unsubscribed later

  beforeAll(async () => {
    account = await createTestAccount(runtime, 'tier2');
    guide = (await createProduct(account, { name: 'Guide', price: 20 }))._id;
    course = (await createProduct(account, { name: 'Course', price: 100 }))._id;
    await addContact(account, formFan, { source: 'form', tags: ['fan'] });
    await addContact(account, apiVip, { tags: ['vip'] });
    await addContact(account, old, { tags: ['fan'] });
    await buy(account, guide, buyerA);
    await buy(account, course, buyerA);
    await buy(account, guide, buyerB, 'FR');
    await settle();
    const gone = await account.test.get(`/newsletters/subscribers?q=${encodeURIComponent(old)}`);
    await account.test.patch(`/newsletters/subscribers/${gone.body.data[0]._id}`, { status: 'unsubscribed' });
  });

  const preview = async (definition: unknown) => {
    const res = await account.test.post('/newsletters/segments/preview', { definition });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const one = (rule: Record<string, unknown>) => ({ match: 'all', groups: [{ match: 'all', rules: [rule] }] });

  it('validates definitions, answering 400 naming the rule, and changes nothing', async () => {
    const bad = async (definition: unknown, pattern: RegExp) => {
      const res = await account.test.post('/newsletters/segments', { name: 'Bad', definition });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error ?? res.body.message).toMatch(pattern);
    };
    await bad(one({ type: 'spent', op: 'eq', amountCents: 100 }), /groups\[0\]\.rules\[0\] \(spent\): op must be "gt" or "lt"/);
    await bad(
      {
        match: 'all',
        groups: [
          { match: 'all', rules: [{ type: 'tag', tag: 'x' }] },
          { match: 'any', rules: [{ type: 'nope' }] },
        ],
      },
      /groups\[1\]\.rules\[0\]: unknown rule type "nope"/,
    );
    await bad({ match: 'all', groups: Array.from({ length: 11 }, () => ({ match: 'all', rules: [{ type: 'tag', tag: 'x' }] })) }, /at most 10 groups/);
    await bad(undefined, /definition/);
    await bad('all', /definition must be an object/);
    const preview = await account.test.post('/newsletters/segments/preview', { definition: one({ type: 'boughtWithin', days: 0 }) });
    expect(preview.status).toBe(400);
    expect((await account.test.get('/newsletters/segments')).body.total).toBe(0);
  });

  it('previews each rule over contacts created by the API, a form source and purchases', async () => {
    expect(emailsOf((await preview(one({ type: 'bought', productId: course }))).sample)).toEqual([buyerA]);
    expect(emailsOf((await preview(one({ type: 'notBought', productId: course }))).sample)).toEqual([apiVip, buyerB, formFan].sort());
    expect(emailsOf((await preview(one({ type: 'spent', op: 'gt', amountCents: 5000 }))).sample)).toEqual([buyerA]);
    expect(emailsOf((await preview(one({ type: 'spent', op: 'lt', amountCents: 5000 }))).sample)).toEqual([apiVip, buyerB, formFan].sort());
    expect(emailsOf((await preview(one({ type: 'boughtWithin', days: 1 }))).sample)).toEqual([buyerA, buyerB].sort());
    expect((await preview(one({ type: 'notBoughtWithin', days: 1 }))).count).toBe(0);
    expect(emailsOf((await preview(one({ type: 'country', countries: ['fr'] }))).sample)).toEqual([buyerB]);
    expect(emailsOf((await preview(one({ type: 'source', source: 'form' }))).sample)).toEqual([formFan]);
    expect(emailsOf((await preview(one({ type: 'source', source: 'checkout' }))).sample)).toEqual([buyerA, buyerB].sort());
    // Unsubscribed contacts are never members.
    expect(emailsOf((await preview(one({ type: 'tag', tag: 'fan' }))).sample)).toEqual([formFan]);
    expect((await preview(one({ type: 'notTag', tag: 'fan' }))).count).toBe(3);
    const either = await preview({
      match: 'any',
      groups: [
        { match: 'all', rules: [{ type: 'tag', tag: 'vip' }] },
        {
          match: 'all',
          rules: [
            { type: 'country', countries: ['DE'] },
            { type: 'bought', productId: guide },
          ],
        },
      ],
    });
    expect(either).toMatchObject({ count: 2, complete: true });
    expect(Object.keys(either.sample[0]).sort()).toEqual(['_id', 'email', 'name']);
    expect(Date.parse(either.computedAt)).not.toBeNaN();
  });

  it('creates, lists, reads, counts, pages members, updates and deletes; smart tags are unique', async () => {
    const created = await account.test.post('/newsletters/segments', {
      name: 'Buyers',
      description: 'Anyone who bought',
      definition: one({ type: 'spent', op: 'gt', amountCents: 0 }),
      smartTag: 'buyer',
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body._id;
    expect(created.body).toMatchObject({
      name: 'Buyers',
      description: 'Anyone who bought',
      smartTag: 'buyer',
      definition: one({ type: 'spent', op: 'gt', amountCents: 0 }),
    });
    const taken = await account.test.post('/newsletters/segments', { name: 'Other', definition: one({ type: 'tag', tag: 'vip' }), smartTag: 'buyer' });
    expect(taken.status).toBe(409);
    const self = await account.test.post('/newsletters/segments', { name: 'Loop', definition: one({ type: 'tag', tag: 'loop' }), smartTag: 'loop' });
    expect(self.status).toBe(400);
    const second = await account.test.post('/newsletters/segments', { name: 'Everyone', definition: one({ type: 'notTag', tag: 'nobody-has-this' }) });
    expect(second.status).toBe(201);

    const list = await account.test.get('/newsletters/segments?page=1&pageSize=1');
    expect(list.body).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(list.body.data.map((s: { _id: string }) => s._id)).toEqual([second.body._id]);
    expect((await account.test.get('/newsletters/segments?page=2&pageSize=1')).body.data[0]._id).toBe(id);
    expect((await account.test.get('/newsletters/segments?pageSize=101')).status).toBe(400);

    expect((await account.test.get(`/newsletters/segments/${id}`)).body).toMatchObject({ _id: id, smartTag: 'buyer' });
    expect((await account.test.get(`/newsletters/segments/${id}/count`)).body).toMatchObject({ _id: id, count: 2, complete: true });
    const everyone = second.body._id;
    expect((await account.test.get(`/newsletters/segments/${everyone}/count`)).body.count).toBe(4);
    for (const limit of [1, 3, 100]) expect(await allMembers(account, everyone, limit)).toEqual([apiVip, buyerA, buyerB, formFan].sort());
    expect((await account.test.get(`/newsletters/segments/${everyone}/subscribers?after=garbage`)).status).toBe(400);

    const updated = await account.test.post(`/newsletters/segments/${id}`, {
      name: 'Big buyers',
      definition: one({ type: 'spent', op: 'gt', amountCents: 5000 }),
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Big buyers', smartTag: 'buyer', description: 'Anyone who bought' });
    expect((await account.test.get(`/newsletters/segments/${id}/count`)).body.count).toBe(1);
    expect((await account.test.post(`/newsletters/segments/${id}`, { definition: one({ type: 'spent', op: 'ge', amountCents: 1 }) })).status).toBe(400);
    expect((await account.test.post(`/newsletters/segments/${everyone}`, { smartTag: 'buyer' })).status).toBe(409);

    // Another account and the other mode see nothing.
    const other = await createTestAccount(runtime, 'tier2');
    expect((await other.test.get(`/newsletters/segments/${id}`)).status).toBe(404);
    expect((await other.test.get(`/newsletters/segments/${id}/subscribers`)).status).toBe(404);
    expect((await other.test.delete(`/newsletters/segments/${id}`)).status).toBe(404);
    expect((await account.live.get(`/newsletters/segments/${id}`)).status).toBe(404);
    expect((await account.live.get('/newsletters/segments')).body.total).toBe(0);

    expect((await account.test.delete(`/newsletters/segments/${everyone}`)).body).toEqual({ _id: everyone, deleted: true });
    expect((await account.test.get(`/newsletters/segments/${everyone}`)).status).toBe(404);
    // Its tag is free again once the segment is gone.
    expect((await account.test.delete(`/newsletters/segments/${id}`)).status).toBe(200);
    expect((await account.test.post('/newsletters/segments', { name: 'Again', definition: one({ type: 'tag', tag: 'vip' }), smartTag: 'buyer' })).status).toBe(
      201,
    );
  });

  it('needs Growth to create or preview; reading stays open', async () => {
    const free = await createTestAccount(runtime, 'free');
    const res = await free.test.post('/newsletters/segments', { name: 'X', definition: one({ type: 'tag', tag: 'a' }) });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FEATURE_LOCKED', details: { requiredPlan: 'tier2' } });
    expect((await free.test.post('/newsletters/segments/preview', { definition: one({ type: 'tag', tag: 'a' }) })).status).toBe(403);
    expect((await free.test.get('/newsletters/segments')).status).toBe(200);
  });
});

describe('smart tags refreshed nightly, and posts to a segment', () => {
  const tagsOf = async (account: TestAccount, email: string) => {
    const res = await account.test.get(`/newsletters/subscribers?q=${encodeURIComponent(email)}`);
    const c = res.body.data[0];
    return { tags: [...c.tags].sort(), smartTags: [...c.smartTags].sort(), id: c._id as string };
  };
  /** Moves the local clock past the next 03:00 UTC, where the nightly refresh fires. */
  const pastNextNight = async () => {
    const now = Date.parse((await ctl.post('/_local/clock/advance', { seconds: 0 })).body.now);
    const next = new Date(now);
    next.setUTCHours(3, 0, 0, 0);
    if (next.getTime() <= now) next.setUTCDate(next.getUTCDate() + 1);
    await ctl.post('/_local/clock/advance', { seconds: Math.ceil((next.getTime() - now) / 1000) + 60 });
    await settle();
  };

  it('adds the tag to new members, takes it from leavers only where it added it, and takes it back when the segment goes', async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const d = uniq();
    const [a, b, hand, outsider] = ['a', 'b', 'hand', 'out'].map((n) => `${n}-${d}@example.com`) as [string, string, string, string];
    await addContact(account, a, { tags: ['fan'] });
    await addContact(account, b, { tags: ['fan'] });
    await addContact(account, hand, { tags: ['superfan'] }); // hand-typed, not a member
    await addContact(account, outsider);
    const seg = await account.test.post('/newsletters/segments', {
      name: 'Fans',
      definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'tag', tag: 'fan' }] }] },
      smartTag: 'superfan',
    });
    expect(seg.status, seg.text).toBe(201);
    // Nothing happens before the night.
    expect((await tagsOf(account, a)).tags).toEqual(['fan']);

    await pastNextNight();
    expect(await tagsOf(account, a)).toMatchObject({ tags: ['fan', 'superfan'], smartTags: ['superfan'] });
    expect(await tagsOf(account, b)).toMatchObject({ tags: ['fan', 'superfan'], smartTags: ['superfan'] });
    expect(await tagsOf(account, hand)).toMatchObject({ tags: ['superfan'], smartTags: [] });
    expect((await tagsOf(account, outsider)).tags).toEqual([]);
    expect((await account.test.get(`/newsletters/segments/${seg.body._id}`)).body.smartTagRefreshedAt).not.toBeNull();

    // b leaves the segment: the next night takes the smart tag back; hand keeps its hand-typed one.
    const bId = (await tagsOf(account, b)).id;
    expect((await account.test.post(`/newsletters/subscribers/${bId}/tags/remove`, { tags: ['fan'] })).status).toBeLessThan(300);
    await pastNextNight();
    expect((await tagsOf(account, b)).tags).toEqual([]);
    expect((await tagsOf(account, a)).tags).toEqual(['fan', 'superfan']);
    expect((await tagsOf(account, hand)).tags).toEqual(['superfan']);

    // Deleting the segment takes its tag back from the contacts it added it to, at once.
    await account.test.delete(`/newsletters/segments/${seg.body._id}`);
    await settle();
    expect((await tagsOf(account, a)).tags).toEqual(['fan']);
    expect((await tagsOf(account, hand)).tags).toEqual(['superfan']);
  });

  it('a post with segmentId reaches exactly the segment at send time; a deleted segment or a lost plan fails the post', async () => {
    const account = await createTestAccount(runtime, 'tier2');
    const d = uniq();
    const members = Array.from({ length: 7 }, (_, i) => `m${i}-${d}@example.com`);
    const others = Array.from({ length: 5 }, (_, i) => `o${i}-${d}@example.com`);
    for (const email of members) await addContact(account, email, { country: 'NL' });
    for (const email of others) await addContact(account, email, { country: 'BE' });
    const seg = await account.test.post('/newsletters/segments', {
      name: 'Dutch',
      definition: { match: 'any', groups: [{ match: 'all', rules: [{ type: 'country', countries: ['NL'] }] }] },
    });
    const post = await account.test.post('/newsletters/posts', { subject: `Seg ${d}`, text: 'hi', segmentId: seg.body._id });
    expect(post.status, post.text).toBe(201);
    // A member added after the post was written is still reached: evaluated at send time.
    const late = `late-${d}@example.com`;
    await addContact(account, late, { country: 'NL' });
    const sent = await account.test.post(`/newsletters/posts/${post.body._id}/send`);
    expect(sent.status, sent.text).toBeLessThan(300);
    await settle();
    const mails = (await ctl.get('/_local/emails')).body.emails as { to: string; subject: string }[];
    expect(
      mails
        .filter((m) => m.subject === `Seg ${d}`)
        .map((m) => m.to)
        .sort(),
    ).toEqual([...members, late].sort());

    await ctl.patch(`/_local/accounts/${account.accountId}`, { plan: 'free' });
    const noPlan = await account.test.post('/newsletters/posts', { subject: `NoPlan ${d}`, text: 'hi', segmentId: seg.body._id });
    const refused = await account.test.post(`/newsletters/posts/${noPlan.body._id}/send`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'SEGMENT_UNAVAILABLE' });
    await ctl.patch(`/_local/accounts/${account.accountId}`, { plan: 'tier2' });

    await account.test.delete(`/newsletters/segments/${seg.body._id}`);
    const gone = await account.test.post('/newsletters/posts', { subject: `Gone ${d}`, text: 'hi', segmentId: seg.body._id });
    const res = await account.test.post(`/newsletters/posts/${gone.body._id}/send`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('SEGMENT_UNAVAILABLE');
    await settle();
    const after = (await ctl.get('/_local/emails')).body.emails as { subject: string }[];
    expect(after.filter((m) => m.subject === `Gone ${d}` || m.subject === `NoPlan ${d}`)).toHaveLength(0);
  });

  it('counts stay right from the stored count as contacts subscribe, unsubscribe, get tagged and are erased; other tenants and modes move nothing', async () => {
    // Given an account with a few contacts and three saved segments, counted once stored counts exist.
    const acct = await createTestAccount(runtime, 'tier2');
    const e = uniq();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await addContact(acct, `n${i}-${e}@example.com`, { source: i < 3 ? 'form' : 'api', tags: i % 2 ? ['fan'] : [] }))._id);
    const one = (rule: Record<string, unknown>) => ({ match: 'all', groups: [{ match: 'all', rules: [rule] }] });
    const definitions = {
      fans: one({ type: 'tag', tag: 'fan' }),
      form: one({ type: 'source', source: 'form' }),
      everyone: one({ type: 'notTag', tag: 'nobody-has-this' }),
    };
    const segs: Record<string, string> = {};
    for (const [name, definition] of Object.entries(definitions)) segs[name] = (await acct.test.post('/newsletters/segments', { name, definition })).body._id;
    const counts = async () => {
      const out: Record<string, number> = {};
      for (const [name, id] of Object.entries(segs)) {
        const res = await acct.test.get(`/newsletters/segments/${id}/count`);
        expect(res.status, res.text).toBe(200);
        const previewed = await acct.test.post('/newsletters/segments/preview', { definition: definitions[name as keyof typeof definitions] });
        expect(res.body.count, name).toBe(previewed.body.count);
        out[name] = res.body.count;
      }
      return out;
    };
    expect(await counts()).toEqual({ fans: 3, form: 3, everyone: 6 });
    await settle(); // the facts rebuild the first counts queued
    await ctl.post('/_local/clock/advance', { seconds: 120 });
    await counts(); // finds no stored counts: queues the recount, now a minute past the rebuild
    await settle();

    // When contacts change, then every count follows at once.
    await addContact(acct, `late-${e}@example.com`, { source: 'form', tags: ['fan'] });
    expect(await counts()).toEqual({ fans: 4, form: 4, everyone: 7 });
    expect((await acct.test.patch(`/newsletters/subscribers/${ids[1]}`, { status: 'unsubscribed' })).status).toBe(200);
    expect(await counts()).toEqual({ fans: 3, form: 3, everyone: 6 });
    expect((await acct.test.post(`/newsletters/subscribers/${ids[0]}/tags`, { tags: ['fan'] })).status).toBe(200);
    expect(await counts()).toEqual({ fans: 4, form: 3, everyone: 6 });
    expect((await acct.test.post(`/newsletters/subscribers/${ids[3]}/tags/remove`, { tags: ['fan'] })).status).toBe(200);
    expect(await counts()).toEqual({ fans: 3, form: 3, everyone: 6 });
    expect((await acct.test.delete(`/newsletters/subscribers/${ids[2]}`)).status).toBe(200);
    expect(await counts()).toEqual({ fans: 3, form: 2, everyone: 5 });
    expect((await acct.test.patch(`/newsletters/subscribers/${ids[1]}`, { status: 'subscribed' })).status).toBe(200);
    expect(await counts()).toEqual({ fans: 4, form: 3, everyone: 6 });

    // Another account and the live mode gain contacts: this account's test counts do not move.
    const other = await createTestAccount(runtime, 'tier2');
    await addContact(other, `other-${e}@example.com`, { source: 'form', tags: ['fan'] });
    const live = await acct.live.post('/newsletters/subscribers', { email: `live-${e}@example.com`, source: 'form', tags: ['fan'] });
    expect(live.status).toBe(201);
    expect(await counts()).toEqual({ fans: 4, form: 3, everyone: 6 });
    expect((await other.test.get(`/newsletters/segments/${segs.fans}/count`)).status).toBe(404);
    expect((await acct.live.get(`/newsletters/segments/${segs.fans}/count`)).status).toBe(404);

    // And after the next recount (stored anew past these changes) they still hold.
    await ctl.post('/_local/clock/advance', { seconds: 120 });
    await settle();
    expect(await counts()).toEqual({ fans: 4, form: 3, everyone: 6 });
  });
});

describe('purchase totals follow refunds and disputes at once', () => {
  it('a refund takes its amount off the buyer total and a dispute what was left of the sale, once each; the spent rule follows', async () => {
    const acct = await createTestAccount(runtime, 'tier2');
    const course = (await createProduct(acct, { name: 'Course', price: 100 }))._id;
    const e = uniq();
    const refunded = `refunded-${e}@example.com`;
    const disputed = `disputed-${e}@example.com`;
    const paid = async (email: string) => (await pay(runtime, (await openCheckout(acct, course)).id, { email })) as { saleId: string };
    const refundedSale = await paid(refunded);
    const disputedSale = await paid(disputed);
    await settle();
    const total = async (email: string) =>
      ((await acct.test.get(`/newsletters/subscribers?q=${encodeURIComponent(email)}`)).body.data as { email: string; totalSpentCents: number }[]).find(
        (c) => c.email === email,
      )?.totalSpentCents;
    const bigSpenders = async () => {
      const res = await acct.test.post('/newsletters/segments/preview', {
        definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'spent', op: 'gt', amountCents: 5000 }] }] },
      });
      expect(res.status, res.text).toBe(200);
      return emailsOf(res.body.sample);
    };
    expect([await total(refunded), await total(disputed)]).toEqual([10000, 10000]);
    expect(await bigSpenders()).toEqual([disputed, refunded].sort());

    expect((await ctl.post(`/_local/sales/${refundedSale.saleId}/refund`, { amountCents: 6000 })).status).toBe(200);
    expect((await ctl.post(`/_local/sales/${disputedSale.saleId}/refund`, { amountCents: 1000 })).status).toBe(200);
    expect((await ctl.post(`/_local/sales/${disputedSale.saleId}/dispute`, {})).status).toBe(200);
    await settle();
    // 100 - 60 refunded; 100 - 10 refunded - the 90 left of the disputed sale.
    expect([await total(refunded), await total(disputed)]).toEqual([4000, 0]);
    expect(await bigSpenders()).toEqual([]);

    // The weekly check against the sales agrees: a week of nights later nothing moved.
    await ctl.post('/_local/clock/advance', { seconds: 8 * 86_400 });
    await settle();
    expect([await total(refunded), await total(disputed)]).toEqual([4000, 0]);
  }, 120_000);
});
