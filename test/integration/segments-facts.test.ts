import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import { addTags, deleteContact, removeTags, listContacts, updateContact, upsertContact } from '../../shared/audience/service';
import { audiencePage, recordEngagement } from '../../shared/audience/suppression';
import { bulkCreateContacts } from '../../shared/audience/bulk';
import { contactFacts, rebuildContactFacts } from '../../shared/audience/contact-facts';
import { recordSaleFacts } from '../../shared/audience/sale-facts';
import type { ContactRecord } from '../../shared/audience/records';
import { getFactsHead } from '../../shared/audience/facts-store';
import { updateContactTagsIfUnchanged } from '../../shared/audience/bulk-store';
import { createSegment, evaluate, refreshSmartTag, refreshStep, segmentMembersPage } from '../../shared/segments/service';
import { matchesDefinition, parseDefinition, type Definition } from '../../shared/segments/rules';
import type { OperationContext } from '../../shared/platform/context';

// A small seeded generator so a failure can be replayed.
function rng(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const TAGS = ['vip', 'beta', 'newsletter', 'course', 'lead'];
const PRODUCTS = ['p1', 'p2', 'p3', 'p4'];
const COUNTRIES = ['DE', 'FR', 'US', 'GB', null];
const SOURCES = ['form', 'checkout', 'import', 'api', null] as const;

function randomDefinition(r: () => number): Definition {
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
  const rule = () => {
    switch (Math.floor(r() * 10)) {
      case 0:
        return { type: 'bought', productId: pick(PRODUCTS) };
      case 1:
        return { type: 'notBought', productId: pick(PRODUCTS) };
      case 2:
        return { type: 'spent', op: pick(['gt', 'lt']), amountCents: Math.floor(r() * 20_000) };
      case 3:
        return { type: 'boughtWithin', days: 1 + Math.floor(r() * 60) };
      case 4:
        return { type: 'notBoughtWithin', days: 1 + Math.floor(r() * 60) };
      case 5:
        return { type: 'engagedWithin', days: 1 + Math.floor(r() * 30), event: pick(['opened', 'clicked', 'any']) };
      case 6:
        return { type: 'tag', tag: pick(TAGS) };
      case 7:
        return { type: 'notTag', tag: pick(TAGS) };
      case 8:
        return { type: 'country', countries: [pick(['DE', 'FR', 'US']), pick(['GB', 'DE'])] };
      default:
        return { type: 'source', source: pick(['form', 'checkout', 'import', 'api']) };
    }
  };
  const group = () => ({ match: pick(['all', 'any']), rules: Array.from({ length: 1 + Math.floor(r() * 3) }, rule) });
  return parseDefinition({ match: pick(['all', 'any']), groups: Array.from({ length: 1 + Math.floor(r() * 3) }, group) });
}

/** What the evaluator did before the facts layout: every subscribed contact, page by page (read once, evaluated per definition). */
async function subscribedContacts(deps: OperationContext, scope: OperationContext['scope']): Promise<ContactRecord[]> {
  const out: ContactRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await audiencePage(deps, scope, {}, { limit: 1000, cursor });
    out.push(...page.contacts);
    cursor = page.cursor;
  } while (cursor);
  // A send walks the audience shard by shard; the evaluator listed members oldest first.
  return out.sort((a, b) => (a._id < b._id ? -1 : 1));
}
const oldMembers = (contacts: ContactRecord[], definition: Definition, nowMs: number) =>
  contacts.filter((c) => matchesDefinition(definition, c, nowMs)).map((c) => c._id);

async function newMembers(deps: OperationContext, scope: OperationContext['scope'], segmentId: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await segmentMembersPage(deps, scope, segmentId, { limit: 700, cursor });
    out.push(...page.contacts.map((c) => c._id));
    cursor = page.cursor;
  } while (cursor);
  return out;
}

describe('segments over the contact-facts layout', () => {
  it('count, preview and member pages equal the old evaluator on 2,000 random contacts, snapshot plus deltas, other tenants unseen', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'seg@example.com', currency: 'USD', plan: 'tier2' });
    const scope = { accountId: account.accountId, mode: 'test' as const };
    const ctx = { ...deps, scope, plan: 'tier2' } as unknown as OperationContext;
    const r = rng(42);
    const nowMs = clock.nowMs();
    const daysAgo = (max: number) => (r() < 0.3 ? null : new Date(nowMs - Math.floor(r() * max * 86_400_000)).toISOString());
    const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)]!;
    const seeded = await bulkCreateContacts(
      deps,
      scope,
      Array.from({ length: 2000 }, (_, i) => {
        const last = daysAgo(90);
        return {
          email: `c${i}@example.com`,
          status: r() < 0.85 ? ('subscribed' as const) : ('unsubscribed' as const),
          source: pick(SOURCES),
          country: pick(COUNTRIES),
          tags: TAGS.filter(() => r() < 0.3),
          facts: last
            ? {
                lastPurchaseAt: last,
                firstPurchaseAt: last,
                totalSpentCents: Math.floor(r() * 30_000),
                productIds: PRODUCTS.filter(() => r() < 0.4),
                lastOpenAt: daysAgo(40),
                lastClickAt: daysAgo(40),
              }
            : { lastOpenAt: daysAgo(40) },
        };
      }),
    );
    // Another tenant's contacts never show in this one's facts.
    const other = await createAccount(deps.store, clock, { email: 'other@example.com' });
    await upsertContact(deps, { accountId: other.accountId, mode: 'test' }, { email: 'intruder@example.com', tags: ['vip'] });
    await upsertContact(deps, { ...scope, mode: 'live' }, { email: 'live-only@example.com', tags: ['vip'] });

    // Before any snapshot: the deltas alone answer, and a rebuild is due.
    const early = await contactFacts(deps, scope);
    expect(early.rebuildDue).toBe(true);
    expect(early.rows.length).toBe(seeded.filter((c) => c.status === 'subscribed').length);

    const rebuilt = await rebuildContactFacts(deps, scope);
    expect(rebuilt.count).toBe(early.rows.length);

    // Changes after the snapshot: they live in the deltas until the next rebuild.
    clock.advance(60);
    const subscribed = seeded.filter((c) => c.status === 'subscribed');
    for (let i = 0; i < 40; i++) await upsertContact(deps, scope, { email: `late${i}@example.com`, source: 'form', tags: r() < 0.5 ? ['vip'] : [] });
    await Promise.all(subscribed.slice(0, 30).map((c) => addTags(deps, scope, c._id, ['vip', 'course'])));
    await Promise.all(subscribed.slice(30, 50).map((c) => removeTags(deps, scope, c._id, c.tags)));
    await Promise.all(subscribed.slice(50, 70).map((c) => updateContact(deps, scope, c._id, { status: 'unsubscribed' })));
    await Promise.all(
      seeded
        .filter((c) => c.status === 'unsubscribed')
        .slice(0, 20)
        .map((c) => updateContact(deps, scope, c._id, { status: 'subscribed' })),
    );
    await Promise.all(subscribed.slice(70, 80).map((c) => deleteContact(deps, scope, c._id)));
    await Promise.all(subscribed.slice(80, 120).map((c) => recordEngagement(deps, scope, c._id, r() < 0.5 ? 'open' : 'click')));
    const saleAt = clock.now().toISOString();
    for (const c of subscribed.slice(120, 140)) {
      await recordSaleFacts(
        deps,
        newEvent(scope, clock, 'order.completed', {
          order: { id: c._id, productId: 'p9', createdAt: saleAt },
          amount: 250,
          currency: 'USD',
          product: { id: 'p9' },
          customer: { email: c.email, country: 'JP' },
        }),
      );
    }
    const facts = await contactFacts(deps, scope);
    expect(facts.deltas).toBeGreaterThan(150);
    expect(facts.rows.some((row) => row.email === 'intruder@example.com' || row.email === 'live-only@example.com')).toBe(false);

    // Last purchase moves at once on a sale, through the delta.
    const buyer = facts.rows.find((row) => row._id === subscribed[120]!._id)!;
    expect(buyer).toMatchObject({ lastPurchaseAt: saleAt, country: 'JP' });
    expect(buyer.productIds).toContain('p9');

    const definitions = [
      ...Array.from({ length: 14 }, () => randomDefinition(r)),
      parseDefinition({
        match: 'all',
        groups: [
          {
            match: 'all',
            rules: [
              { type: 'bought', productId: 'p9' },
              { type: 'boughtWithin', days: 1 },
            ],
          },
        ],
      }),
      parseDefinition({ match: 'all', groups: [{ match: 'all', rules: [{ type: 'tag', tag: 'vip' }] }] }),
    ];
    let nonEmpty = 0;
    const contacts = await subscribedContacts(ctx, scope);
    for (const [i, definition] of definitions.entries()) {
      const expected = oldMembers(contacts, definition, clock.nowMs());
      const evaluation = await evaluate(ctx, scope, definition, { sample: 5 });
      expect(evaluation.count, JSON.stringify(definition)).toBe(expected.length);
      expect(evaluation.sample.map((s) => s._id)).toEqual(expected.slice(0, 5));
      if (expected.length) nonEmpty++;
      // Members paging (what a segment post sends through), for a few of them.
      if (i % 5 === 0 || i >= definitions.length - 2) {
        const segment = await createSegment(ctx, { name: `s${i}`, definition });
        expect(await newMembers(ctx, scope, segment._id)).toEqual(oldMembers(contacts, definition, clock.nowMs()));
      }
    }
    expect(nonEmpty).toBeGreaterThan(6);

    // The next rebuild folds the deltas in: same answers from the snapshot alone.
    clock.advance(600);
    await rebuildContactFacts(deps, scope);
    const after = await contactFacts(deps, scope);
    expect(after.deltas).toBe(0);
    const again = await subscribedContacts(ctx, scope);
    for (const definition of definitions.slice(0, 5))
      expect((await evaluate(ctx, scope, definition)).count).toBe(oldMembers(again, definition, clock.nowMs()).length);
  }, 240_000);

  it('the smart-tag refresh over the facts tags joiners, untags leavers it tagged, keeps hand-typed tags', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'seg@example.com', plan: 'tier2' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    const ctx = { ...deps, scope, plan: 'tier2' } as unknown as OperationContext;
    const contacts: ContactRecord[] = await bulkCreateContacts(
      deps,
      scope,
      Array.from({ length: 90 }, (_, i) => ({ email: `t${i}@example.com`, country: i % 3 === 0 ? 'DE' : 'FR', tags: i === 1 ? ['german'] : [] })),
    );
    await rebuildContactFacts(deps, scope);
    const segment = await createSegment(ctx, {
      name: 'Germans',
      definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'country', countries: ['DE'] }] }] },
      smartTag: 'german',
    });
    expect(await refreshSmartTag(deps, scope, segment._id)).toBe(true);
    let rows = (await contactFacts(deps, scope)).rows;
    expect(rows.filter((row) => row.tags.includes('german')).map((row) => row._id)).toEqual(
      contacts.filter((c, i) => i % 3 === 0 || i === 1).map((c) => c._id),
    );
    // Two Germans move to France: they leave; the hand-typed carrier (t1, French) keeps the tag.
    await updateContact(deps, scope, contacts[0]!._id, { country: 'FR' });
    await updateContact(deps, scope, contacts[3]!._id, { country: 'FR' });
    expect(await refreshSmartTag(deps, scope, segment._id)).toBe(true);
    rows = (await contactFacts(deps, scope)).rows;
    const carriers = rows.filter((row) => row.tags.includes('german')).map((row) => row._id);
    expect(carriers).toContain(contacts[1]!._id);
    expect(carriers).not.toContain(contacts[0]!._id);
    expect(carriers).not.toContain(contacts[3]!._id);
    expect(carriers.length).toBe(30 - 2 + 1);

    // A crash between the record write and its tag item and delta: the record carries the tag,
    // the facts do not. The next refresh writes the tag item and the delta again.
    const moved = await updateContact(deps, scope, contacts[2]!._id, { country: 'DE' });
    clock.advance(1);
    expect(
      await updateContactTagsIfUnchanged(deps.store, scope, [
        { next: { ...moved, tags: [...moved.tags, 'german'], smartTags: ['german'], updatedAt: clock.now().toISOString() }, before: moved },
      ]),
    ).toEqual([true]);
    expect((await contactFacts(deps, scope)).rows.find((row) => row._id === moved._id)!.tags).not.toContain('german');
    expect(await refreshSmartTag(deps, scope, segment._id)).toBe(true);
    expect((await contactFacts(deps, scope)).rows.find((row) => row._id === moved._id)!.tags).toContain('german');
    expect((await listContacts(deps, scope, { tag: 'german' }, { limit: 100 })).contacts.map((c) => c._id)).toContain(moved._id);
  }, 120_000);

  it('the nightly refresh compacts a scope with saved segments only when contacts changed, and reads every scope in full weekly', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'idle@example.com', plan: 'tier2' });
    const scope = { accountId: account.accountId, mode: 'live' as const };
    const ctx = { ...deps, scope, plan: 'tier2' } as unknown as OperationContext;
    const nightly = async () => {
      await refreshStep(deps, { scope, facts: true, nightly: true });
      return (await getFactsHead(deps.store, scope))!;
    };
    const first = await nightly();
    expect(first).toMatchObject({ count: 0 });
    clock.advance(86_400);
    expect((await nightly()).generation).toBe(first.generation);

    // No saved segment: a contact written since waits for the weekly full read (its delta carries it).
    const [early] = await bulkCreateContacts(deps, scope, [{ email: 'early@example.com' }]);
    clock.advance(86_400);
    expect((await nightly()).generation).toBe(first.generation);
    expect((await contactFacts(deps, scope)).rows.map((r) => r._id)).toEqual([early!._id]);

    // With a saved segment, a contact written since is compacted in the next night.
    await createSegment(ctx, { name: 'Everyone', definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'notTag', tag: 'x' }] }] } });
    const [contact] = await bulkCreateContacts(deps, scope, [{ email: 'new@example.com' }]);
    clock.advance(86_400);
    const second = await nightly();
    expect(second.generation).not.toBe(first.generation);
    expect(second.count).toBe(2);
    // Nothing written since: the night after is skipped.
    clock.advance(86_400);
    expect((await nightly()).generation).toBe(second.generation);

    // One gone: the night after writes the snapshot without it; the next is skipped; a week after
    // the last full read, a full rebuild runs even with nothing changed.
    await deleteContact(deps, scope, contact!._id);
    clock.advance(86_400);
    const emptied = await nightly();
    expect(emptied.count).toBe(1);
    clock.advance(86_400);
    expect((await nightly()).generation).toBe(emptied.generation);
    clock.advance(7 * 86_400);
    expect((await nightly()).generation).not.toBe(emptied.generation);

    // A scope that stayed empty: its weekly full read is a probe of the deltas, its head says when.
    const quiet = { ...scope, mode: 'test' as const };
    await refreshStep(deps, { scope: quiet, facts: true, nightly: true });
    const empty = (await getFactsHead(deps.store, quiet))!;
    clock.advance(8 * 86_400);
    await refreshStep(deps, { scope: quiet, facts: true, nightly: true });
    const later = (await getFactsHead(deps.store, quiet))!;
    expect(later).toMatchObject({ generation: empty.generation, count: 0 });
    expect(Date.parse(later.fullAt!) - Date.parse(empty.fullAt!)).toBeGreaterThanOrEqual(8 * 86_400_000);
    // Then a contact: the next weekly read is a full one and counts it.
    await bulkCreateContacts(deps, quiet, [{ email: 'first@example.com' }]);
    clock.advance(8 * 86_400);
    await refreshStep(deps, { scope: quiet, facts: true, nightly: true });
    expect(await getFactsHead(deps.store, quiet)).toMatchObject({ count: 1 });
  }, 60_000);
});
