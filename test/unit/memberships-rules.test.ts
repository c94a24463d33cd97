import { describe, expect, it } from 'vitest';
import { applySources, countDelta, memberEventData, offerSource, productSource, slugify, sourceAllowed, uniqueSlug } from '../../shared/memberships/rules';
import type { MemberRecord, MembershipRecord } from '../../shared/memberships/records';

const base = { email: 'a@example.com', name: 'A', now: '2026-01-01T00:00:00.000Z', reason: 'subscription_ended' as const };

describe('membership rules', () => {
  it('slugs names and de-duplicates', () => {
    expect(slugify('  Café Club!! 2 ')).toBe('cafe-club-2');
    expect(slugify('!!!')).toBe('membership');
    expect(uniqueSlug('Club', ['club', 'club-2'])).toBe('club-3');
    expect(uniqueSlug('Club', [])).toBe('club');
  });

  it('joins on the first live source, once', () => {
    const joined = applySources(undefined, { ...base, add: [offerSource('o1', 's1')] });
    expect(joined.kind).toBe('joined');
    if (joined.kind === 'none') throw new Error('expected a change');
    expect(joined.next).toMatchObject({ status: 'active', sources: ['offer:o1:sub:s1'], rev: 1 });
    expect(applySources(joined.next, { ...base, add: [offerSource('o1', 's1')] }).kind).toBe('none');
    expect(applySources(undefined, { ...base, remove: () => true }).kind).toBe('none');
  });

  it('stays while another source lives and leaves with the last one', () => {
    const member: MemberRecord = {
      email: 'a@example.com',
      name: 'A',
      status: 'active',
      sources: ['offer:o1:sub:s1', 'product:p:order:x'],
      joinedAt: 'j',
      leftAt: null,
      leftReason: null,
      rev: 3,
    };
    const partial = applySources(member, { ...base, remove: (s) => s === 'offer:o1:sub:s1' });
    expect(partial.kind).toBe('update');
    if (partial.kind === 'none') throw new Error('expected a change');
    const left = applySources(partial.next, { ...base, reason: 'membership_closed', remove: () => true });
    expect(left.kind).toBe('left');
    if (left.kind !== 'left') throw new Error('expected left');
    expect(left.next).toMatchObject({ status: 'ended', leftReason: 'membership_closed', leftAt: base.now, rev: 5 });
    expect(applySources(left.next, { ...base, remove: () => true }).kind).toBe('none');
    const back = applySources(left.next, { ...base, add: [productSource('p', 'y')] });
    expect(back.kind).toBe('joined');
    expect(countDelta(back, false)).toEqual({ active: 1, ended: -1 });
    expect(countDelta(left, false)).toEqual({ active: -1, ended: 1 });
  });

  it('allows only sources of the current offers and products of an active membership', () => {
    const m = { offerIds: ['o1'], productIds: ['p1'], productBuyersJoin: true, status: 'active' as const };
    expect(sourceAllowed(m, offerSource('o1', 's'))).toBe(true);
    expect(sourceAllowed(m, offerSource('o2', 's'))).toBe(false);
    expect(sourceAllowed(m, productSource('p1', 'x'))).toBe(true);
    // The spec's reading by default: a product sale is no member source unless switched on.
    expect(sourceAllowed({ ...m, productBuyersJoin: false }, productSource('p1', 'x'))).toBe(false);
    expect(sourceAllowed({ offerIds: ['o1'], productIds: ['p1'], status: 'active' }, productSource('p1', 'x'))).toBe(false);
    expect(sourceAllowed({ ...m, status: 'archived' }, offerSource('o1', 's'))).toBe(false);
  });

  it('shapes event data exactly', () => {
    const membership = { _id: 'm1', name: 'Club', slug: 'club' } as MembershipRecord;
    const member: MemberRecord = {
      email: 'a@example.com',
      name: null,
      status: 'ended',
      sources: [],
      joinedAt: 'j',
      leftAt: 'l',
      leftReason: 'membership_changed',
      rev: 2,
    };
    expect(memberEventData(membership, member, 'joined')).toEqual({
      membership: { id: 'm1', name: 'Club', slug: 'club' },
      member: { email: 'a@example.com', name: null },
      joinedAt: 'j',
    });
    expect(memberEventData(membership, member, 'left')).toEqual({
      membership: { id: 'm1', name: 'Club', slug: 'club' },
      member: { email: 'a@example.com', name: null },
      joinedAt: 'j',
      leftAt: 'l',
      reason: 'membership_changed',
    });
  });
});

import { orderPosts, startsNotification } from '../../shared/memberships/posts/rules';
import { sanitizePostHtml } from '../../shared/memberships/posts/sanitiser';

describe('post rules', () => {
  it('sanitises scripts, handlers and javascript links', () => {
    expect(sanitizePostHtml('<p onmouseover="x()">Hi</p><script>1</script><a href="javascript:x()">a</a><a href="https://e.com">b</a>')).toBe(
      '<p>Hi</p><a>a</a><a href="https://e.com">b</a>',
    );
  });

  it('starts a notification only once, only when published with notify and post emails on', () => {
    expect(startsNotification(undefined, { status: 'published', notify: true }, true)).toBe(true);
    expect(startsNotification(undefined, { status: 'draft', notify: true }, true)).toBe(false);
    expect(startsNotification(undefined, { status: 'published', notify: false }, true)).toBe(false);
    expect(startsNotification(undefined, { status: 'published', notify: true }, false)).toBe(false);
    expect(startsNotification({ notifyState: 'sent' }, { status: 'published', notify: true }, true)).toBe(false);
  });

  it('orders pinned first, then newest', () => {
    expect(
      orderPosts([
        { _id: 'a1', pinned: false },
        { _id: 'a3', pinned: false },
        { _id: 'a2', pinned: true },
      ]).map((p) => p._id),
    ).toEqual(['a2', 'a3', 'a1']);
  });
});
