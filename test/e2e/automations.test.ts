import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import { control, createProduct, openCheckout, pay } from '../support/commerce';
import { createTestAccount, settleWithRetries, startTestRuntime, type TestAccount } from '../support/runtime';

let runtime: LocalRuntime;
let account: TestAccount;
let productId: string;
let vipSegment: string;
const posts: Record<string, string> = {};

const VIP = { match: 'all', groups: [{ match: 'all', rules: [{ type: 'tag', tag: 'vip' }] }] };
const subjects = async (to: string) => {
  await settleWithRetries(runtime);
  // The automations' mails only (each purchase also sends its receipt).
  return ((await control(runtime).get(`/_local/emails?to=${encodeURIComponent(to)}`)).body.emails as { subject: string }[])
    .map((m) => m.subject)
    .filter((s) => !/receipt/i.test(s))
    .sort();
};
const buy = async (email: string) => {
  const paid = await pay(runtime, (await openCheckout(account, productId)).id, { email, firstName: 'Ada' });
  expect(paid.status).toBe('paid');
  await settleWithRetries(runtime);
};

beforeAll(async () => {
  runtime = await startTestRuntime();
  account = await createTestAccount(runtime, 'tier2');
  productId = (await createProduct(account, { name: 'Pottery course', price: 25 }))._id;
  const segment = await account.test.post('/newsletters/segments', { name: 'VIP', definition: VIP });
  expect(segment.status, segment.text).toBe(201);
  vipSegment = segment.body._id;
  for (const [email, tags] of [
    ['vip@example.com', ['vip']],
    ['plain@example.com', []],
  ] as const) {
    expect((await account.test.post('/newsletters/subscribers', { email, tags })).status).toBe(201);
  }
  for (const subject of ['Welcome, VIP', 'Hello buyer', 'VIP extras', 'For everyone']) {
    const post = await account.test.post('/newsletters/posts', { subject, text: `${subject}.` });
    expect(post.status, post.text).toBe(201);
    posts[subject] = post.body._id;
  }
}, 120_000);
afterAll(async () => runtime?.stop());

describe('automations with segments (growth spec: "restrict a trigger to a segment or branch on membership")', () => {
  it('CRUD: creates, validates every reference, reads, lists, pauses and deletes; isolated per account and mode; Growth', { timeout: 120_000 }, async () => {
    const body = { name: 'Thank buyers', trigger: { type: 'order_completed', productId }, steps: [{ type: 'send_email', postId: posts['Hello buyer'] }] };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...body, steps: [] }, 'steps'],
      [{ ...body, steps: [{ type: 'send_email', postId: 'a'.repeat(24) }] }, 'steps.0.postId'],
      [{ ...body, steps: [{ type: 'wait', hours: 0 }] }, 'steps.0.hours'],
      [{ ...body, trigger: { type: 'order_completed', segmentId: 'b'.repeat(24) } }, 'trigger.segmentId'],
      [
        {
          ...body,
          steps: [
            { type: 'if_segment', segmentId: vipSegment, otherwise: 0 },
            { type: 'send_email', postId: posts['Hello buyer'] },
          ],
        },
        'steps.0.otherwise',
      ],
      [
        {
          ...body,
          steps: [
            { type: 'send_email', postId: posts['Hello buyer'] },
            { type: 'if_segment', segmentId: 'c'.repeat(24), otherwise: 'end' },
          ],
        },
        'steps.1.segmentId',
      ],
    ];
    for (const [input, field] of bad) {
      const res = await account.test.post('/automations', input);
      expect(res.status, JSON.stringify(input)).toBe(400);
      expect(res.body.field).toBe(field);
    }
    expect((await account.test.get('/automations')).body.automations).toEqual([]);

    const created = await account.test.post('/automations', body);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ name: 'Thank buyers', status: 'draft', trigger: { type: 'order_completed', productId } });
    const id = created.body._id;
    expect((await account.test.get(`/automations/${id}`)).body).toEqual(created.body);
    expect((await account.test.get('/automations')).body.automations.map((a: any) => a._id)).toEqual([id]);
    const renamed = await account.test.patch(`/automations/${id}`, { name: 'Thank you', status: 'active' });
    expect(renamed.body).toMatchObject({ name: 'Thank you', status: 'active' });
    expect((await account.test.delete(`/automations/${id}`)).body.code).toBe('AUTOMATION_ACTIVE');

    const other = await createTestAccount(runtime, 'tier2');
    for (const api of [other.test, account.live]) {
      expect((await api.get(`/automations/${id}`)).status).toBe(404);
      expect((await api.patch(`/automations/${id}`, { status: 'paused' })).status).toBe(404);
      expect((await api.delete(`/automations/${id}`)).status).toBe(404);
    }
    // Another account's segment and posts are not this account's.
    expect((await other.test.post('/automations', { ...body, trigger: { type: 'order_completed', segmentId: vipSegment } })).body.field).toBe('steps.0.postId');
    const free = await createTestAccount(runtime, 'free');
    expect((await free.test.post('/automations', body)).body.code).toBe('FEATURE_LOCKED');

    expect((await account.test.patch(`/automations/${id}`, { status: 'paused' })).body.status).toBe('paused');
    expect((await account.test.delete(`/automations/${id}`)).status).toBe(200);
    expect((await account.test.get(`/automations/${id}`)).status).toBe(404);
  });

  it('a trigger restricted to a segment lets in only its members; an if_segment step branches on membership', { timeout: 180_000 }, async () => {
    const restricted = await account.test.post('/automations', {
      name: 'VIP welcome',
      trigger: { type: 'order_completed', productId, segmentId: vipSegment },
      steps: [{ type: 'send_email', postId: posts['Welcome, VIP'] }],
      status: 'active',
    });
    expect(restricted.status, restricted.text).toBe(201);
    const branching = await account.test.post('/automations', {
      name: 'Buyer sequence',
      trigger: { type: 'order_completed', productId },
      steps: [
        { type: 'send_email', postId: posts['Hello buyer'] },
        { type: 'wait', hours: 24 },
        { type: 'if_segment', segmentId: vipSegment, otherwise: 4 },
        { type: 'send_email', postId: posts['VIP extras'] },
        { type: 'send_email', postId: posts['For everyone'] },
      ],
      status: 'active',
    });
    expect(branching.status, branching.text).toBe(201);

    await buy('vip@example.com');
    await buy('plain@example.com');
    expect(await subjects('vip@example.com')).toEqual(expect.arrayContaining(['Hello buyer', 'Welcome, VIP']));
    expect(await subjects('plain@example.com')).not.toContain('Welcome, VIP');
    expect(await subjects('plain@example.com')).toContain('Hello buyer');

    // The branch is reached a day later: in the segment, the VIP mail and then the common one;
    // outside it, straight to the common one.
    await control(runtime).post('/_local/clock/advance', { seconds: 25 * 3600 });
    expect(await subjects('vip@example.com')).toEqual(['For everyone', 'Hello buyer', 'VIP extras', 'Welcome, VIP']);
    expect(await subjects('plain@example.com')).toEqual(['For everyone', 'Hello buyer']);
    // A second purchase enters no one twice.
    await buy('vip@example.com');
    expect(await subjects('vip@example.com')).toEqual(['For everyone', 'Hello buyer', 'VIP extras', 'Welcome, VIP']);

    // Contacts who join the segment later enter a restricted trigger on their next purchase, not before.
    const plainId = (await account.test.get('/newsletters/subscribers?q=plain@example.com')).body.data[0]._id;
    expect((await account.test.post(`/newsletters/subscribers/${plainId}/tags`, { tags: ['vip'] })).status).toBe(200);
    // The restricted trigger never let plain in (it joined the segment after its purchase).
    expect(await subjects('plain@example.com')).not.toContain('Welcome, VIP');
    await buy('plain@example.com');
    expect(await subjects('plain@example.com')).toContain('Welcome, VIP');
  });
});
