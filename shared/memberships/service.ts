import { lookupOffer, lookupProduct } from '../catalog/service';
import type { Account, Deps } from '../platform/context';
import { newEvent, outboxPut, type DomainEvent } from '../platform/events';
import { badRequest, conflict, notFound } from '../platform/errors';
import { isObjectId, objectId } from '../platform/ids';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { lookupSubscriber, offerSubscribersPage } from '../subscriptions/lookups';
import type { LeaveReason, MemberRecord, MemberStatus, MembershipRecord } from './records';
import { getCounts, getMember, getMembership, listMembers, listMemberships, memberPage, memberWrites, membershipWrites } from './repository';
import { applySources, countDelta, memberEventData, offerSource, personName, productSource, sourceAllowed, uniqueSlug, type SourceUpdate } from './rules';

export type MembershipCtx = Deps & { scope: Scope; account: Account };

/** Internal event (never delivered): a membership's offers, products or status changed; members are re-derived. */
export const RESYNC_EVENT = 'membership.resync';
const MAX_ATTEMPTS = 5;

export interface MembershipInput {
  name?: string;
  offerIds?: string[];
  productIds?: string[];
  productBuyersJoin?: boolean;
  communityEnabled?: boolean;
  postEmailsEnabled?: boolean;
}

export const presentMembership = (m: MembershipRecord, counts?: { active: number; ended: number }) => ({
  ...m,
  productBuyersJoin: m.productBuyersJoin === true,
  ...(counts ? { memberCount: counts.active } : {}),
});

/** Ids must be the caller's, of the key's mode, and not deleted: the same 400 for any other. */
async function checkReferences(ctx: MembershipCtx, input: MembershipInput, current?: MembershipRecord) {
  for (const [field, ids] of [
    ['offerIds', input.offerIds],
    ['productIds', input.productIds],
  ] as const) {
    for (const [index, id] of (ids ?? []).entries()) {
      if ((field === 'offerIds' ? current?.offerIds : current?.productIds)?.includes(id)) continue;
      const record = isObjectId(id) ? await (field === 'offerIds' ? lookupOffer(ctx, ctx.scope, id) : lookupProduct(ctx, ctx.scope, id)) : undefined;
      if (!record || record.deletedAt)
        throw badRequest(`${field}.${index}: ${field === 'offerIds' ? 'subscription offer' : 'product'} ${id} not found`, { field: `${field}.${index}` });
    }
  }
}

const resyncEvent = (ctx: Deps, scope: Scope, membership: MembershipRecord, removedReason: LeaveReason) =>
  outboxPut(newEvent(scope, ctx.clock, RESYNC_EVENT, { membershipId: membership._id, reason: removedReason }));

export async function createMembership(ctx: MembershipCtx, input: Required<Pick<MembershipInput, 'name'>> & MembershipInput) {
  const offerIds = [...new Set(input.offerIds ?? [])];
  const productIds = [...new Set(input.productIds ?? [])];
  await checkReferences(ctx, { offerIds, productIds });
  const now = ctx.clock.now().toISOString();
  const existing = await listMemberships(ctx.store, ctx.scope);
  const record: MembershipRecord = {
    _id: objectId(ctx.clock),
    name: input.name.trim(),
    slug: uniqueSlug(
      input.name,
      existing.map((m) => m.slug),
    ),
    offerIds,
    productIds,
    productBuyersJoin: input.productBuyersJoin === true,
    status: 'active',
    communityEnabled: input.communityEnabled ?? true,
    postEmailsEnabled: input.postEmailsEnabled ?? true,
    testMode: ctx.scope.mode === 'test',
    createdAt: now,
    updatedAt: now,
    archivedAt: null,
  };
  await ctx.store.transact([membershipWrites.create(ctx.scope, record), resyncEvent(ctx, ctx.scope, record, 'membership_changed')]);
  return presentMembership(record, { active: 0, ended: 0 });
}

export async function requireMembership(deps: Deps, scope: Scope, id: string): Promise<MembershipRecord> {
  const m = isObjectId(id) ? await getMembership(deps.store, scope, id) : undefined;
  if (!m) throw notFound('Membership');
  return m;
}

export async function listMembershipViews(ctx: MembershipCtx, filter: { status?: 'active' | 'archived' }) {
  const all = await listMemberships(ctx.store, ctx.scope);
  return all.filter((m) => !filter.status || m.status === filter.status).map((m) => presentMembership(m));
}

export async function readMembership(ctx: MembershipCtx, id: string) {
  const m = await requireMembership(ctx, ctx.scope, id);
  return presentMembership(m, await getCounts(ctx.store, ctx.scope, id));
}

/** Read, merge, write guarded by `updatedAt`; a change of offers, products or status re-derives members. */
async function changeMembership(
  ctx: MembershipCtx,
  id: string,
  apply: (m: MembershipRecord, now: string) => Promise<MembershipRecord> | MembershipRecord,
  reason: LeaveReason,
) {
  for (let attempt = 1; ; attempt++) {
    const current = await requireMembership(ctx, ctx.scope, id);
    const next = await apply(current, ctx.clock.now().toISOString());
    if (next === current) return presentMembership(current, await getCounts(ctx.store, ctx.scope, id));
    const sourcesChanged =
      next.status !== current.status ||
      next.offerIds.join() !== current.offerIds.join() ||
      next.productIds.join() !== current.productIds.join() ||
      Boolean(next.productBuyersJoin) !== Boolean(current.productBuyersJoin);
    const ops: TransactOp[] = [membershipWrites.replace(ctx.scope, next, current.updatedAt)];
    if (sourcesChanged) ops.push(resyncEvent(ctx, ctx.scope, next, reason));
    try {
      await ctx.store.transact(ops);
      return presentMembership(next, await getCounts(ctx.store, ctx.scope, id));
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= 3) throw conflict('The membership changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

export async function updateMembership(ctx: MembershipCtx, id: string, input: MembershipInput) {
  return changeMembership(
    ctx,
    id,
    async (current, now) => {
      if (current.status === 'archived' && (input.offerIds || input.productIds || input.name)) {
        throw conflict('The membership is archived; reopen it first', 'MEMBERSHIP_ARCHIVED');
      }
      const offerIds = input.offerIds ? [...new Set(input.offerIds)] : current.offerIds;
      const productIds = input.productIds ? [...new Set(input.productIds)] : current.productIds;
      await checkReferences(ctx, { offerIds, productIds }, current);
      let slug = current.slug;
      const name = input.name?.trim() ?? current.name;
      if (name !== current.name)
        slug = uniqueSlug(
          name,
          (await listMemberships(ctx.store, ctx.scope)).filter((m) => m._id !== id).map((m) => m.slug),
        );
      const next: MembershipRecord = {
        ...current,
        name,
        slug,
        offerIds,
        productIds,
        productBuyersJoin: input.productBuyersJoin ?? current.productBuyersJoin,
        communityEnabled: input.communityEnabled ?? current.communityEnabled,
        postEmailsEnabled: input.postEmailsEnabled ?? current.postEmailsEnabled,
      };
      if (JSON.stringify(next) === JSON.stringify(current)) return current;
      return { ...next, updatedAt: now };
    },
    'membership_changed',
  );
}

export async function archiveMembership(ctx: MembershipCtx, id: string) {
  return changeMembership(
    ctx,
    id,
    (current, now) => (current.status === 'archived' ? current : { ...current, status: 'archived', archivedAt: now, updatedAt: now }),
    'membership_closed',
  );
}

export async function reopenMembership(ctx: MembershipCtx, id: string) {
  return changeMembership(
    ctx,
    id,
    (current, now) => (current.status === 'active' ? current : { ...current, status: 'active', archivedAt: null, updatedAt: now }),
    'membership_changed',
  );
}

// ---- members ----

export const presentMember = (m: MemberRecord) => ({
  email: m.email,
  name: m.name,
  status: m.status,
  joinedAt: m.joinedAt,
  leftAt: m.leftAt,
  leftReason: m.leftReason,
});

const PAGE_WALK_LIMIT = 50;

/**
 * One page of members. `cursor` (from `nextCursor`) is the way through large lists; `page` walks
 * the pages before it (at most 50 pages deep) for clients that count pages.
 */
export async function listMembershipMembers(
  ctx: MembershipCtx,
  id: string,
  query: { status?: MemberStatus; q?: string; page: number; limit: number; cursor?: string },
) {
  await requireMembership(ctx, ctx.scope, id);
  if (query.page > PAGE_WALK_LIMIT && !query.cursor) throw badRequest(`page: at most ${PAGE_WALK_LIMIT}; use nextCursor to go further`, { field: 'page' });
  let cursor = query.cursor;
  let result = await listMembers(ctx.store, ctx.scope, id, query, { limit: query.limit, cursor });
  for (let p = 1; !query.cursor && p < query.page; p++) {
    if (!result.cursor) return { data: [], page: query.page, limit: query.limit, nextCursor: null, counts: await countsView(ctx, id) };
    cursor = result.cursor;
    result = await listMembers(ctx.store, ctx.scope, id, query, { limit: query.limit, cursor });
  }
  return { data: result.items.map(presentMember), page: query.page, limit: query.limit, nextCursor: result.cursor ?? null, counts: await countsView(ctx, id) };
}

async function countsView(ctx: MembershipCtx, id: string) {
  const c = await getCounts(ctx.store, ctx.scope, id);
  return { all: c.active + c.ended, active: c.active, ended: c.ended };
}

/**
 * Applies a source change to one member row, with its event and counters in one transaction.
 * A concurrent change makes the conditional write fail, and the change is recomputed on the fresh row.
 */
export async function changeMember(
  deps: Deps,
  scope: Scope,
  membership: MembershipRecord,
  update: SourceUpdate,
): Promise<'joined' | 'left' | 'update' | 'none'> {
  for (let attempt = 1; ; attempt++) {
    const current = await getMember(deps.store, scope, membership._id, update.email);
    const change = applySources(current, update);
    if (change.kind === 'none') return 'none';
    const ops: TransactOp[] = [memberWrites.put(scope, membership._id, change.next, current?.rev)];
    const delta = countDelta(change, !current);
    if (delta.active || delta.ended) ops.push(memberWrites.counts(scope, membership._id, delta));
    if (change.kind === 'joined' || change.kind === 'left') {
      ops.push(
        outboxPut(
          newEvent(scope, deps.clock, change.kind === 'joined' ? 'member.joined' : 'member.left', memberEventData(membership, change.next, change.kind)),
        ),
      );
    }
    try {
      await deps.store.transact(ops);
      return change.kind;
    } catch (error) {
      if (!isConditionFailed(error) || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

// ---- derivation from committed events (bus consumers) ----

const normEmail = (email: unknown) => (typeof email === 'string' ? email.trim().toLowerCase() : undefined);

/**
 * A subscription event: the subscriber's current state (not the event's) decides, so repeats and
 * reordering converge; access lasts while the subscriber is `active` (also cancel-scheduled, paused).
 */
export async function onSubscriptionEvent(deps: Deps, event: DomainEvent) {
  const subscriberId = event.data.subscriptionCustomerId;
  if (typeof subscriberId !== 'string') return;
  const scope = { accountId: event.accountId, mode: event.mode };
  const sub = await lookupSubscriber(deps, scope, subscriberId);
  if (!sub) return;
  const memberships = (await listMemberships(deps.store, scope)).filter((m) => m.status === 'active' && m.offerIds.includes(sub.subscriptionId));
  for (const membership of memberships) await applySubscriber(deps, scope, membership, sub);
}

type Subscriber = NonNullable<Awaited<ReturnType<typeof lookupSubscriber>>>;

async function applySubscriber(deps: Deps, scope: Scope, membership: MembershipRecord, sub: Subscriber) {
  const source = offerSource(sub.subscriptionId, sub._id);
  const email = normEmail(sub.buyerEmail)!;
  const now = deps.clock.now().toISOString();
  const name = personName(sub.firstName, sub.lastName);
  await changeMember(
    deps,
    scope,
    membership,
    sub.active
      ? { email, name, add: [source], now, reason: 'subscription_ended' }
      : { email, name, remove: (s) => s === source, now, reason: 'subscription_ended' },
  );
}

/** A one-time sale of a listed product grants access; a full refund takes it back. */
export async function onOrderEvent(deps: Deps, event: DomainEvent) {
  const order = event.data.order as { id?: string; type?: string } | undefined;
  const product = event.data.product as { id?: string } | undefined;
  const customer = event.data.customer as { email?: string; firstName?: string; lastName?: string } | undefined;
  if (!order?.id || order.type === 'subscription' || !product?.id) return;
  const email = normEmail(customer?.email);
  if (!email) return;
  const scope = { accountId: event.accountId, mode: event.mode };
  // Only memberships whose seller made product buyers members (productBuyersJoin, off by default).
  const memberships = (await listMemberships(deps.store, scope)).filter(
    (m) => m.status === 'active' && m.productBuyersJoin === true && m.productIds.includes(product.id!),
  );
  const source = productSource(product.id, order.id);
  const refunded = event.type === 'order.refunded';
  if (refunded && !(event.data.refund as { full?: boolean } | undefined)?.full) return;
  const now = deps.clock.now().toISOString();
  const name = personName(customer?.firstName, customer?.lastName);
  for (const membership of memberships) {
    await changeMember(
      deps,
      scope,
      membership,
      refunded
        ? { email, name, remove: (s) => s === source, now, reason: 'subscription_ended' }
        : { email, name, add: [source], now, reason: 'subscription_ended' },
    );
  }
}

/**
 * Re-derives a membership's members after its offers, products or status changed: rows whose
 * sources no longer belong leave (`membership_changed`, or `membership_closed` when archived),
 * then live subscribers of its offers join. Set semantics make a redelivered event a no-op.
 */
export async function resyncMembership(deps: Deps, event: DomainEvent) {
  const scope = { accountId: event.accountId, mode: event.mode };
  const membership = await getMembership(deps.store, scope, String(event.data.membershipId));
  if (!membership) return;
  const reason: LeaveReason = membership.status === 'archived' ? 'membership_closed' : 'membership_changed';
  const now = deps.clock.now().toISOString();
  let cursor: string | undefined;
  do {
    const page = await memberPage(deps.store, scope, membership._id, cursor);
    for (const member of page.items) {
      if (member.sources.every((s) => sourceAllowed(membership, s))) continue;
      await changeMember(deps, scope, membership, { email: member.email, name: null, remove: (s) => !sourceAllowed(membership, s), now, reason });
    }
    cursor = page.cursor;
  } while (cursor);
  if (membership.status !== 'active') return;
  for (const offerId of membership.offerIds) {
    let subCursor: string | undefined;
    do {
      const page = await offerSubscribersPage(deps, scope, offerId, subCursor);
      for (const sub of page.items) if (sub.active) await applySubscriber(deps, scope, membership, sub);
      subCursor = page.cursor;
    } while (subCursor);
  }
}
