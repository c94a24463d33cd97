import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, settleWithRetries } from '../support/runtime';
import { control, createProduct } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';
import { changeMember, requireMembership } from '../../shared/memberships/service';
import { productSource } from '../../shared/memberships/rules';
import { suppressEmail } from '../../shared/audience/suppression';

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

const MEMBERS = 230;

describe('members-only posts', () => {
  it('notifies each active member exactly once, honouring suppression; sanitises; pins; drafts; deletes; isolates', { timeout: 240_000 }, async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const product = await createProduct(account, { name: 'Pass', price: 10 });
    const membership = (await account.test.post('/memberships', { name: 'Readers', productIds: [product._id], productBuyersJoin: true })).body;
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const record = await requireMembership(runtime.deps, scope, membership._id);
    // Members through the capability's own transition (what the sale consumer calls), in bulk.
    const emails = Array.from({ length: MEMBERS }, (_, i) => `reader${String(i).padStart(4, '0')}@example.com`);
    const now = runtime.clock.now().toISOString();
    for (let i = 0; i < emails.length; i += 10) {
      await Promise.all(
        emails.slice(i, i + 10).map((email, j) =>
          changeMember(runtime.deps, scope, record, {
            email,
            name: null,
            add: [productSource(product._id, `ord${i + j}`)],
            now,
            reason: 'subscription_ended',
          }),
        ),
      );
    }
    // One leaves, one is suppressed: neither is mailed.
    await changeMember(runtime.deps, scope, record, { email: emails[0]!, name: null, remove: () => true, now, reason: 'subscription_ended' });
    await suppressEmail(runtime.deps, scope, emails[1]!, 'bounce');
    expect((await account.test.get(`/memberships/${membership._id}/members`)).body.counts).toEqual({ all: MEMBERS, active: MEMBERS - 1, ended: 1 });

    const created = await account.test.post(`/memberships/${membership._id}/posts`, {
      title: 'Week 1 notes',
      html: '<p onclick="steal()">Hello <b>readers</b></p><script>alert(1)</script><a href="javascript:x()">x</a>',
      status: 'published',
      notify: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'published', notify: true, notifyState: 'pending', notifiedCount: 0 });
    expect(created.body.html).toBe('<p>Hello <b>readers</b></p><a>x</a>');
    const postId = created.body._id;

    await settleWithRetries(runtime);
    const sent = (await account.test.get(`/memberships/${membership._id}/posts/${postId}`)).body;
    expect(sent).toMatchObject({ notifyState: 'sent', notifiedCount: MEMBERS - 2 });
    const mails = ((await control(runtime).get('/_local/emails')).body.emails as { to: string; subject: string; html: string }[]).filter(
      (m) => m.subject === 'Week 1 notes',
    );
    const perRecipient = new Map<string, number>();
    for (const m of mails) perRecipient.set(m.to, (perRecipient.get(m.to) ?? 0) + 1);
    expect(perRecipient.size).toBe(MEMBERS - 2);
    expect([...perRecipient.values()].every((n) => n === 1)).toBe(true);
    expect(perRecipient.has(emails[0]!)).toBe(false);
    expect(perRecipient.has(emails[1]!)).toBe(false);
    expect(mails[0]!.html).toContain('Readers');

    // Back to draft and published again: no second notification.
    expect((await account.test.patch(`/memberships/${membership._id}/posts/${postId}`, { status: 'draft' })).body.status).toBe('draft');
    expect((await account.test.patch(`/memberships/${membership._id}/posts/${postId}`, { status: 'published', notify: true })).body.notifyState).toBe('sent');
    await settleWithRetries(runtime);
    const again = ((await control(runtime).get('/_local/emails')).body.emails as { subject: string }[]).filter((m) => m.subject === 'Week 1 notes');
    expect(again).toHaveLength(mails.length);

    // A draft without notify, pinned first in the list.
    const draft = (await account.test.post(`/memberships/${membership._id}/posts`, { title: 'Draft', html: '<p>wip</p>' })).body;
    expect(draft).toMatchObject({ status: 'draft', notifyState: null });
    await account.test.patch(`/memberships/${membership._id}/posts/${postId}`, { pinned: true });
    const list = (await account.test.get(`/memberships/${membership._id}/posts`)).body;
    expect(list.data.map((p: any) => p._id)).toEqual([postId, draft._id]);
    expect((await account.test.get(`/memberships/${membership._id}/posts?status=draft`)).body.data.map((p: any) => p._id)).toEqual([draft._id]);
    expect((await account.test.post(`/memberships/${membership._id}/posts`, { title: '', html: 'x' })).status).toBe(400);

    // Isolation: another account or mode gets 404 for the post and its membership.
    const stranger = await createTestAccount(runtime, 'tier3');
    for (const other of [stranger.test, account.live]) {
      expect((await other.get(`/memberships/${membership._id}/posts/${postId}`)).status).toBe(404);
      expect((await other.patch(`/memberships/${membership._id}/posts/${postId}`, { pinned: false })).status).toBe(404);
      expect((await other.delete(`/memberships/${membership._id}/posts/${postId}`)).status).toBe(404);
    }
    expect((await account.test.delete(`/memberships/${membership._id}/posts/${draft._id}`)).body).toEqual({ _id: draft._id, deleted: true });
    expect((await account.test.get(`/memberships/${membership._id}/posts/${draft._id}`)).status).toBe(404);
  });
});
