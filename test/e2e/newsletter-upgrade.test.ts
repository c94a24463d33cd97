import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactKey, contactKeyBefore } from '../../shared/audience/repository';
import type { ContactRecord } from '../../shared/audience/records';
import { updateContact, upsertContact } from '../../shared/audience/service';
import { getPost, postWrites } from '../../shared/email/repository';
import { EMAIL_QUEUE } from '../../shared/email/service';
import type { LocalRuntime } from '../../shared/local/runtime';
import { keys, type Scope } from '../../shared/store/keys';
import type { Item } from '../../shared/store/store';
import { control, createTestAccount, settleWithRetries, startTestRuntime } from '../support/runtime';

// A newsletter send stores its place in the audience (the post's `cursor`) after every batch. The
// release before write-sharded contact indexes stored the store's cursor into the one subscribed
// partition of the status index; this release reads the index's shards merged by contact id. A send
// in flight when the new release deploys goes on after the same contact: nobody mailed twice, or not at all.

let runtime: LocalRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => runtime?.stop());

describe('a newsletter send in flight across the contact-index upgrade', () => {
  it('finishes from the cursor the previous release stored, mailing every later subscriber once', { timeout: 180_000 }, async () => {
    const account = await createTestAccount(runtime);
    const scope: Scope = { accountId: account.accountId, mode: 'test' };
    const { store } = runtime.deps;
    const contacts: ContactRecord[] = [];
    for (let i = 0; i < 12; i++) {
      const { contact } = await upsertContact(runtime.deps, scope, { email: `up${String(i).padStart(2, '0')}@upgrade.example.com`, source: 'import' });
      // As the previous release wrote it: the contact in one partition, unsharded index partitions.
      const item = (await store.get<Item>(contactKey(scope, contact._id), { consistent: true }))!;
      const unsharded = { GSI1PK: String(item.GSI1PK).replace(/#\d+$/, ''), GSI2PK: String(item.GSI2PK).replace(/#\d+$/, '') };
      await store.put({ ...item, ...unsharded, ...contactKeyBefore(scope, contact._id) });
      await store.delete(contactKey(scope, contact._id));
      contacts.push(contact);
    }

    // The previous release sent the first batch (5 here) and committed the cursor of its read.
    const post = (await account.test.post('/newsletters/posts', { subject: 'Across the upgrade', text: 'Hello' })).body as { _id: string };
    const oldRead = await store.query<ContactRecord>({ ...keys.indexPartition('GSI1', scope, 'CONTACTS_BY_STATUS', 'subscribed'), ascending: true, limit: 5 });
    expect(oldRead.items.map((c) => c._id)).toEqual(contacts.slice(0, 5).map((c) => c._id));
    const draft = (await getPost(store, scope, post._id, true))!;
    const now = runtime.deps.clock.now().toISOString();
    const sending = { ...draft, status: 'sending' as const, batch: 1, cursor: oldRead.cursor!, sent: 5, leaseUntil: 0, startedAt: now, updatedAt: now };
    await store.transact([postWrites.replace(scope, sending, draft.updatedAt)]);

    // The new release runs: contacts on both sides of the cursor change (and move to the index's
    // shards), a new subscriber joins, then the send's next batch runs.
    await updateContact(runtime.deps, scope, contacts[2]!._id, { name: 'Mailed before' });
    await updateContact(runtime.deps, scope, contacts[8]!._id, { name: 'Not yet mailed' });
    const { contact: late } = await upsertContact(runtime.deps, scope, { email: 'late@upgrade.example.com', source: 'import' });
    await runtime.deps.ports.queue.send(EMAIL_QUEUE, { scope, postId: post._id, batch: 1 });
    await settleWithRetries(runtime);

    const mails: { to: string; subject: string }[] = (await control(runtime).get('/_local/emails')).body.emails;
    const recipients = mails
      .filter((m) => m.subject === 'Across the upgrade')
      .map((m) => m.to)
      .sort();
    const expected = [...contacts.slice(5), late].map((c) => c.email).sort();
    expect(recipients).toEqual(expected);
    const final = (await account.test.get(`/newsletters/posts/${post._id}`)).body;
    expect(final).toMatchObject({ status: 'sent', sent: 5 + expected.length });
  });
});
