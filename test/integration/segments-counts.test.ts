import { describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import { createAccount } from '../../shared/platform/accounts';
import { newEvent } from '../../shared/platform/events';
import { addTags, deleteContact, updateContact, upsertContact } from '../../shared/audience/service';
import { recordEngagement } from '../../shared/audience/suppression';
import { bulkCreateContacts } from '../../shared/audience/bulk';
import { factChangesSince, rebuildContactFacts } from '../../shared/audience/contact-facts';
import { recordSaleFacts } from '../../shared/audience/sale-facts';
import { createSegment, evaluate, updateSegment } from '../../shared/segments/service';
import { countSegment, recountSegments } from '../../shared/segments/counting';
import { countNow } from '../../shared/segments/counts';
import { getSegmentCount } from '../../shared/segments/repository';
import type { SegmentRecord } from '../../shared/segments/records';
import type { OperationContext } from '../../shared/platform/context';
import type { Scope } from '../../shared/store/keys';

const DAY = 86_400_000;

describe('stored segment counts on DynamoDB Local', () => {
  it('stay equal to a whole evaluation as contacts join, leave, change tags, buy, open and are erased; other tenants and modes move nothing', async () => {
    const { deps, clock } = await createTestDeps();
    const account = await createAccount(deps.store, clock, { email: 'counts@example.com', currency: 'USD', plan: 'tier2' });
    const scope: Scope = { accountId: account.accountId, mode: 'test' };
    const ctx = { ...deps, scope, plan: 'tier2' } as unknown as OperationContext;
    const nowMs = clock.nowMs();
    const ago = (days: number) => new Date(nowMs - days * DAY).toISOString();
    // Given 300 contacts, some bought 6.5 days ago (they leave "bought within 7 days" in 12 hours).
    const seeded = await bulkCreateContacts(
      deps,
      scope,
      Array.from({ length: 300 }, (_, i) => ({
        email: `c${i}@example.com`,
        status: i % 10 === 9 ? ('unsubscribed' as const) : ('subscribed' as const),
        source: i % 3 === 0 ? ('form' as const) : ('import' as const),
        tags: i % 4 === 0 ? ['vip'] : [],
        facts: i % 2 === 0 ? { lastPurchaseAt: ago(i % 4 === 0 ? 6.5 : 20), firstPurchaseAt: ago(30), totalSpentCents: 1000 + i, productIds: ['p1'] } : {},
      })),
    );
    await rebuildContactFacts(deps, scope);
    const rules = {
      form: [{ type: 'source', source: 'form' }],
      vip: [{ type: 'tag', tag: 'vip' }],
      recent: [{ type: 'boughtWithin', days: 7 }],
      lapsed: [{ type: 'notBoughtWithin', days: 7 }],
      engaged: [{ type: 'engagedWithin', days: 3, event: 'any' }],
      spender: [
        { type: 'spent', op: 'gt', amountCents: 1100 },
        { type: 'bought', productId: 'p9' },
      ],
    };
    const segments: SegmentRecord[] = [];
    for (const [name, list] of Object.entries(rules))
      segments.push(await createSegment(ctx, { name, definition: { match: 'any', groups: [{ match: 'any', rules: list }] } }));

    // When the counts are stored a minute behind the rebuild.
    clock.advance(120);
    expect(await recountSegments(deps, scope)).toBe(segments.length);
    for (const s of segments) expect(await getSegmentCount(deps.store, scope, s._id)).toMatchObject({ segmentId: s._id, version: s.updatedAt });

    const expectRight = async (label: string) => {
      for (const s of segments) {
        const whole = await evaluate(ctx, scope, s.definition);
        const { evaluation } = await countSegment(deps, scope, s._id);
        expect(evaluation.count, `${label}: ${s.name}`).toBe(whole.count);
        expect(evaluation.scanned, `${label}: ${s.name}`).toBe(whole.scanned);
      }
    };
    /** Whether the stored count answers without the snapshot (the fast path). */
    const movedFromStore = async (s: SegmentRecord) => {
      const stored = (await getSegmentCount(deps.store, scope, s._id))!;
      const changes = await factChangesSince(deps, scope, stored.at, 2000);
      return countNow(stored, changes.deltas, s.definition, clock.nowMs()) !== undefined;
    };
    await expectRight('stored');

    // Then subscribe, unsubscribe, resubscribe, tag, buy, erase, open: every count follows.
    clock.advance(5);
    for (let i = 0; i < 8; i++) await upsertContact(deps, scope, { email: `new${i}@example.com`, source: 'form', tags: i % 2 ? ['vip'] : [] });
    for (const c of seeded.slice(0, 6)) await updateContact(deps, scope, c._id, { status: 'unsubscribed' });
    await updateContact(deps, scope, seeded[9]!._id, { status: 'subscribed' });
    for (const c of seeded.slice(10, 16)) await addTags(deps, scope, c._id, ['vip']);
    for (const c of seeded.slice(20, 25)) await deleteContact(deps, scope, c._id);
    for (const c of seeded.slice(30, 34))
      await recordSaleFacts(
        deps,
        newEvent(scope, clock, 'order.completed', {
          order: { id: `o-${c._id}`, productId: 'p9', createdAt: clock.now().toISOString() },
          amount: 300,
          currency: 'USD',
          product: { id: 'p9' },
          customer: { email: c.email, country: 'DE' },
        }),
      );
    // Another account and the live mode change too: nothing of theirs shows here.
    const other = await createAccount(deps.store, clock, { email: 'other@example.com' });
    await upsertContact(deps, { accountId: other.accountId, mode: 'test' }, { email: 'intruder@example.com', source: 'form', tags: ['vip'] });
    await upsertContact(deps, { ...scope, mode: 'live' }, { email: 'live-only@example.com', source: 'form', tags: ['vip'] });
    await updateContact(deps, { ...scope, mode: 'live' }, (await upsertContact(deps, { ...scope, mode: 'live' }, { email: 'l2@example.com' })).contact._id, {
      status: 'unsubscribed',
    });
    await expectRight('after changes');
    for (const s of segments.filter((x) => x.name !== 'engaged')) expect(await movedFromStore(s), s.name).toBe(true);

    // An open: the engagement segment cannot be moved past it (it falls back to the snapshot); the others can.
    await recordEngagement(deps, scope, seeded[40]!._id, 'open');
    await expectRight('after an open');
    expect(await movedFromStore(segments.find((s) => s.name === 'engaged')!)).toBe(false);
    expect(await movedFromStore(segments.find((s) => s.name === 'form')!)).toBe(true);

    // Half a day later time alone moved "bought within 7 days" (6.5-day-old purchases aged out).
    clock.advance(DAY / 1000 / 2 + 60);
    const recent = segments.find((s) => s.name === 'recent')!;
    expect(await movedFromStore(recent)).toBe(true);
    await expectRight('12 hours later');

    // A changed definition is not answered from the count stored for the old one.
    const changed = await updateSegment(ctx, segments[0]!._id, {
      definition: { match: 'all', groups: [{ match: 'all', rules: [{ type: 'source', source: 'import' }] }] },
    });
    segments[0] = changed;
    await expectRight('definition changed');
    // A recount stores counts for the current definitions again, and they keep matching.
    clock.advance(120);
    await recountSegments(deps, scope);
    expect(await getSegmentCount(deps.store, scope, changed._id)).toMatchObject({ version: changed.updatedAt });
    await expectRight('recounted');
    // Other scopes have no stored counts of this account's segments.
    expect(await getSegmentCount(deps.store, { ...scope, mode: 'live' }, changed._id)).toBeUndefined();
  }, 240_000);
});
