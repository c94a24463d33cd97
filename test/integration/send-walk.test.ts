import { beforeAll, describe, expect, it } from 'vitest';
import { audiencePage } from '../../shared/audience/repository';
import { createContact, updateContact } from '../../shared/audience/service';
import type { ContactRecord } from '../../shared/audience/records';
import type { Deps } from '../../shared/platform/context';
import { claimKey, fixClaimedBatch, readClaimedBatch, sendClaimedChunks } from '../../shared/store/claimed-batch';
import { toItem } from '../../shared/store/items';
import { createTestDeps } from '../support/store';

// A send walks the subscribed contacts shard by shard (shared/audience/subscribed-walk.ts) and
// claims each chunk in a small item beside its batch marker (shared/store/claimed-batch.ts).

let deps: Deps;
let n = 0;
const tenant = () => ({ accountId: (++n).toString(16).padStart(24, 'a'), mode: 'test' as const });

beforeAll(async () => {
  ({ deps } = await createTestDeps());
});

async function walkAll(scope: ReturnType<typeof tenant>, limit: number, between?: (page: number) => Promise<void>) {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await audiencePage(deps.store, scope, {}, { limit, cursor });
    expect(page.contacts.length).toBeLessThanOrEqual(limit);
    ids.push(...page.contacts.map((c) => c._id));
    cursor = page.cursor;
    pages += 1;
    await between?.(pages);
  } while (cursor);
  return { ids, pages };
}

describe("a send's walk through the subscribed contacts", () => {
  it('reads every subscribed contact once, across shard ends, in pages no larger than asked', async () => {
    const scope = tenant();
    const contacts: ContactRecord[] = [];
    for (let i = 0; i < 60; i++) contacts.push(await createContact(deps, scope, { email: `w${i}@example.com` }));
    await updateContact(deps, scope, contacts[7]!._id, { status: 'unsubscribed' });
    const subscribed = contacts.filter((_, i) => i !== 7).map((c) => c._id);
    for (const limit of [1, 7, 500]) {
      const { ids } = await walkAll(scope, limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort()).toEqual([...subscribed].sort());
    }
    // Shard by shard: each page is one or a few queries, not one per shard.
    expect((await walkAll(scope, 500)).pages).toBe(1);
    // Another tenant's walk reads none of them, and its cursor is refused here.
    const other = tenant();
    await createContact(deps, other, { email: 'other@example.com' });
    const theirs = await audiencePage(deps.store, other, {}, { limit: 1 });
    expect(theirs.contacts.map((c) => c.email)).toEqual(['other@example.com']);
    const mine = await audiencePage(deps.store, scope, {}, { limit: 1 });
    await expect(audiencePage(deps.store, other, {}, { limit: 1, cursor: mine.cursor })).rejects.toMatchObject({ status: 400 });
    await expect(audiencePage(deps.store, { ...scope, mode: 'live' }, {}, { limit: 1, cursor: mine.cursor })).rejects.toMatchObject({ status: 400 });
  });

  it('never reads a contact twice while contacts unsubscribe, come back and join mid-walk', async () => {
    const scope = tenant();
    const contacts: ContactRecord[] = [];
    for (let i = 0; i < 40; i++) contacts.push(await createContact(deps, scope, { email: `m${i}@example.com` }));
    const joined: string[] = [];
    const { ids } = await walkAll(scope, 5, async (page) => {
      const c = contacts[page]!;
      await updateContact(deps, scope, c._id, { status: 'unsubscribed' });
      await updateContact(deps, scope, c._id, { status: 'subscribed' });
      joined.push((await createContact(deps, scope, { email: `late${page}@example.com` }))._id);
    });
    expect(new Set(ids).size).toBe(ids.length);
    // Everyone subscribed throughout is read; a newcomer only where the walk had not passed its shard.
    for (const c of contacts) expect(ids).toContain(c._id);
    for (const id of ids) expect([...contacts.map((c) => c._id), ...joined]).toContain(id);
  });
  // With contacts in the partition written before sharding, a send reads in id order:
  // layout-upgrade-shards.test.ts (an audience read walks the subscribed contacts oldest first).
});

describe('a batch claim kept beside its marker', () => {
  const markerKey = (name: string) => ({ PK: `CLAIMTEST#${name}`, SK: '00000001' });

  it('raises the claim item chunk by chunk and never rewrites the marker', async () => {
    const key = markerKey('fresh');
    const marker = await fixClaimedBatch(deps.store, key, 'TestBatch', { recipients: ['a', 'b', 'c', 'd', 'e'], nextCursor: null });
    const sent: string[][] = [];
    const outcome = await sendClaimedChunks(deps.store, key, marker, 2, async (chunk) => {
      sent.push(chunk);
      return { accepted: chunk.filter((to) => to !== 'd'), failed: chunk.filter((to) => to === 'd').map((to) => ({ to, error: 'refused' })) };
    });
    expect(sent).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(outcome).toEqual({ taken: false, accepted: 4, failed: [{ to: 'd', error: 'refused' }] });
    expect(await deps.store.get(key)).toMatchObject({ claimed: 0, recipients: ['a', 'b', 'c', 'd', 'e'] });
    expect(await readClaimedBatch(deps.store, key)).toMatchObject({ claimed: 5, accepted: 4, failed: [{ to: 'd' }] });
    // A second worker with the marker as first read finds every chunk taken and sends nothing.
    expect(await sendClaimedChunks(deps.store, key, marker, 2, async () => expect.unreachable())).toEqual({ taken: true });
  });

  it('goes on from the count a marker written before the split holds', async () => {
    const key = markerKey('old');
    await deps.store.put(toItem(key, 'TestBatch', { recipients: ['a', 'b', 'c', 'd'], nextCursor: null, claimed: 2, accepted: 2, failed: [] }));
    expect(await deps.store.get(claimKey(key))).toBeUndefined();
    const marker = (await readClaimedBatch(deps.store, key))!;
    expect(marker.claimed).toBe(2);
    const sent: string[] = [];
    const outcome = await sendClaimedChunks(deps.store, key, marker, 2, async (chunk) => {
      sent.push(...chunk);
      return { accepted: chunk, failed: [] };
    });
    expect(sent).toEqual(['c', 'd']);
    expect(outcome).toMatchObject({ taken: false, accepted: 4 });
  });

  it('gives a chunk back when the provider refuses it, so the retry sends it', async () => {
    const key = markerKey('refused');
    const marker = await fixClaimedBatch(deps.store, key, 'TestBatch', { recipients: ['a', 'b', 'c'], nextCursor: null });
    await expect(
      sendClaimedChunks(deps.store, key, marker, 2, async () => {
        throw new Error('provider down');
      }),
    ).rejects.toThrow('provider down');
    const again = (await readClaimedBatch(deps.store, key))!;
    expect(again.claimed).toBe(0);
    const sent: string[] = [];
    await sendClaimedChunks(deps.store, key, again, 2, async (chunk) => {
      sent.push(...chunk);
      return { accepted: chunk, failed: [] };
    });
    expect(sent).toEqual(['a', 'b', 'c']);
  });
});
