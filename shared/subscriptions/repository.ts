import { KEY_IS_FREE, putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { collectPage, type Page } from '../platform/paging';
import { membershipPointerEntity, portalEntity, subscriberEntity, subscriberLocatorEntity, subscriberOfEntity, timerMarkerEntity } from './entities';
import type { SubscriberRecord } from './records';

export { PORTAL } from './entities';

const { ofOffer, ofEmail } = subscriberEntity.declaration.indexes!;

export const subscriberItem = (scope: Scope, sub: SubscriberRecord) =>
  subscriberEntity.item(subscriberEntity.declaration.key(scope, sub._id), sub, {
    indexes: [ofOffer.key(scope, sub.subscriptionId, sub._id), ofEmail.key(scope, sub.buyerEmail, sub._id)],
  });

/** A new subscriber with its guards: one per buyer per offer, the mem_ pointer, locator and portal token. */
export function subscriberPuts(scope: Scope, sub: SubscriberRecord): TransactOp[] {
  const ops: TransactOp[] = [
    putNew(subscriberItem(scope, sub)),
    putNew(subscriberOfEntity.item(subscriberOfEntity.declaration.key(scope, sub.subscriptionId, sub.buyerEmail), { subscriberId: sub._id })),
    { put: subscriberLocatorEntity.item(subscriberLocatorEntity.declaration.key(sub._id), { accountId: scope.accountId, mode: scope.mode }) },
    putNew(
      portalEntity.item(portalEntity.declaration.key(sub.portalToken), {
        accountId: scope.accountId,
        mode: scope.mode,
        subscriberId: sub._id,
        subscriptionId: sub.subscriptionId,
      }),
    ),
  ];
  if (sub.membershipId) ops.push(membershipPointer(scope, sub.membershipId, sub._id));
  return ops;
}

export const membershipPointer = (scope: Scope, membershipId: string, subscriberId: string): TransactOp =>
  putNew(membershipPointerEntity.item(membershipPointerEntity.declaration.key(scope, membershipId), { subscriberId }));

/**
 * Writes the whole record back, guarded by the `updatedAt` it was read with: two racing changes
 * cannot both win, and the loser's transaction (with its events) is dropped.
 */
export function subscriberReplace(scope: Scope, before: SubscriberRecord, after: SubscriberRecord): TransactOp {
  return { put: subscriberItem(scope, after), condition: 'updatedAt = :seen', values: { ':seen': before.updatedAt } };
}

/** A subscription timer's "fired" marker for one period: a second firing fails its transaction. */
export const timerMarkerPut = (marker: string, nowMs: number): TransactOp => ({
  put: timerMarkerEntity.item(timerMarkerEntity.declaration.key(marker), { marker }, { expiresAt: Math.floor(nowMs / 1000) + 30 * 24 * 3600 }),
  condition: KEY_IS_FREE,
});

export async function getSubscriber(store: Store, scope: Scope, id: string, consistent = false): Promise<SubscriberRecord | undefined> {
  return consistent ? subscriberEntity.get(store, 'latest', scope, id) : subscriberEntity.get(store, 'byId', scope, id);
}

export async function findSubscriberOf(store: Store, scope: Scope, offerId: string, email: string): Promise<SubscriberRecord | undefined> {
  const pointer = await subscriberOfEntity.get(store, 'byBuyer', scope, offerId, email);
  return pointer ? getSubscriber(store, scope, pointer.subscriberId, true) : undefined;
}

export async function findSubscriberByMembership(store: Store, scope: Scope, membershipId: string): Promise<SubscriberRecord | undefined> {
  const pointer = await membershipPointerEntity.get(store, 'byMembership', scope, membershipId);
  return pointer ? getSubscriber(store, scope, pointer.subscriberId, true) : undefined;
}

export async function locateSubscriber(store: Store, subscriberId: string): Promise<Scope | undefined> {
  const locator = await subscriberLocatorEntity.get(store, 'bySubscriber', subscriberId);
  return locator ? { accountId: locator.accountId, mode: locator.mode } : undefined;
}

export async function findPortalToken(store: Store, token: string) {
  return portalEntity.get(store, 'byToken', token);
}

/**
 * One page of subscribers, newest first, by cursor: the offer's index with `subscriptionId`, the
 * email's with `email`, else the whole tenant; status (and email within an offer) filter the page.
 */
export function subscribersPage(
  store: Store,
  scope: Scope,
  filter: { status?: string; email?: string; subscriptionId?: string },
  page: { limit: number; cursor?: string },
): Promise<Page<SubscriberRecord>> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.status) {
    conditions.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filter.status;
  }
  if (filter.email && filter.subscriptionId) {
    conditions.push('buyerEmail = :email');
    values[':email'] = filter.email;
  }
  const options = {
    filter: conditions.length ? { expression: conditions.join(' AND '), names: Object.keys(names).length ? names : undefined, values } : undefined,
  };
  const read = (limit: number, cursor: string | undefined) =>
    filter.subscriptionId
      ? subscriberEntity.query(store, 'ofOffer', [scope, filter.subscriptionId], { ...options, limit, cursor })
      : filter.email
        ? subscriberEntity.query(store, 'ofEmail', [scope, filter.email], { ...options, limit, cursor })
        : subscriberEntity.query(store, 'all', [scope], { ...options, limit, cursor });
  return collectPage(read, page.limit, page.cursor);
}

/** One page of an offer's subscribers in id order (GSI1), for consumers that walk them (memberships). */
export async function subscribersOfOfferPage(store: Store, scope: Scope, offerId: string, cursor: string | undefined, limit: number) {
  const result = await subscriberEntity.query(store, 'ofOffer', [scope, offerId], { ascending: true, limit, cursor });
  return { items: result.items, cursor: result.cursor };
}

/** A buyer's subscribers (every offer), one page at a time: their export and erasure. */
export async function subscribersOfEmailPage(store: Store, scope: Scope, email: string, cursor: string | undefined, limit: number) {
  return subscriberEntity.query(store, 'ofEmail', [scope, email], { cursor, limit });
}

/**
 * A subscriber without its buyer (an erasure): the record keeps the books (offer, status,
 * periods, country) under the customer id; the one-per-buyer guard goes, keyed by the email.
 */
export function subscriberErasure(scope: Scope, sub: SubscriberRecord, at: string): TransactOp[] {
  const after: SubscriberRecord = { ...sub, buyerEmail: '', firstName: null, lastName: null, paymentMethod: null, metadata: {}, updatedAt: at };
  return [subscriberReplace(scope, sub, after), { delete: subscriberOfEntity.declaration.key(scope, sub.subscriptionId, sub.buyerEmail) }];
}
