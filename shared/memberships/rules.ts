import type { LeaveReason, MemberRecord, MembershipRecord } from './records';

/** Pure membership rules: slugs, source ids and the member transition. Unit-tested. */

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'membership';
}

/** A slug that does not collide with the ones taken (bounded list: one creator's memberships). */
export function uniqueSlug(name: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  const base = slugify(name);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

export const offerSource = (offerId: string, subscriberId: string) => `offer:${offerId}:sub:${subscriberId}`;
export const productSource = (productId: string, orderId: string) => `product:${productId}:order:${orderId}`;

/** Whether a source still grants access under the membership's current offers and products. */
export function sourceAllowed(membership: Pick<MembershipRecord, 'offerIds' | 'productIds' | 'productBuyersJoin' | 'status'>, source: string): boolean {
  if (membership.status !== 'active') return false;
  const [kind, id] = source.split(':');
  if (kind === 'offer') return membership.offerIds.includes(id!);
  // A sale of a listed product makes a member only where the seller switched it on.
  return kind === 'product' && membership.productBuyersJoin === true && membership.productIds.includes(id!);
}

export type MemberChange =
  | { kind: 'none' }
  | { kind: 'update'; next: MemberRecord }
  | { kind: 'joined'; next: MemberRecord }
  | { kind: 'left'; next: MemberRecord };

export interface SourceUpdate {
  email: string;
  name: string | null;
  /** Sources to add (they are live) and to remove (ended, or no longer part of the membership). */
  add?: string[];
  remove?: (source: string) => boolean;
  now: string;
  /** Why a member whose last source goes away leaves. */
  reason: LeaveReason;
}

/**
 * The next member row after sources change. Set semantics make repeats no-ops: adding a source that
 * is there or removing one that is not changes nothing, so a duplicated event fires nothing twice.
 */
export function applySources(current: MemberRecord | undefined, update: SourceUpdate): MemberChange {
  const before = current?.sources ?? [];
  const kept = update.remove ? before.filter((s) => !update.remove!(s)) : before;
  const sources = [...new Set([...kept, ...(update.add ?? [])])].sort();
  const same = sources.length === before.length && sources.every((s, i) => s === [...before].sort()[i]);
  const name = update.name ?? current?.name ?? null;
  if (!current) {
    if (!sources.length) return { kind: 'none' };
    return { kind: 'joined', next: { email: update.email, name, status: 'active', sources, joinedAt: update.now, leftAt: null, leftReason: null, rev: 1 } };
  }
  if (same && name === current.name) return { kind: 'none' };
  const rev = current.rev + 1;
  if (current.status === 'ended' && sources.length) {
    return { kind: 'joined', next: { ...current, name, status: 'active', sources, joinedAt: update.now, leftAt: null, leftReason: null, rev } };
  }
  if (current.status === 'active' && !sources.length) {
    return { kind: 'left', next: { ...current, name, status: 'ended', sources, leftAt: update.now, leftReason: update.reason, rev } };
  }
  return { kind: 'update', next: { ...current, name, sources, rev } };
}

export const membershipBlock = (m: Pick<MembershipRecord, '_id' | 'name' | 'slug'>) => ({ id: m._id, name: m.name, slug: m.slug });

/** `member.joined` / `member.left` data, exactly the spec's fields. */
export function memberEventData(membership: MembershipRecord, member: MemberRecord, kind: 'joined' | 'left'): Record<string, unknown> {
  const data: Record<string, unknown> = {
    membership: membershipBlock(membership),
    member: { email: member.email, name: member.name },
    joinedAt: member.joinedAt,
  };
  if (kind === 'left') {
    data.leftAt = member.leftAt;
    data.reason = member.leftReason;
  }
  return data;
}

/** Count deltas of a transition, for the per-membership counters. */
export function countDelta(change: MemberChange, wasNew: boolean): { active: number; ended: number } {
  if (change.kind === 'joined') return { active: 1, ended: wasNew ? 0 : -1 };
  if (change.kind === 'left') return { active: -1, ended: 1 };
  return { active: 0, ended: 0 };
}

export const personName = (first: unknown, last: unknown): string | null => {
  const name = [first, last]
    .filter((p) => typeof p === 'string' && p.trim())
    .join(' ')
    .trim();
  return name || null;
};
