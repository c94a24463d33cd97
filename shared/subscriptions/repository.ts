import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { SUBSCRIBER, type SubscriberRecord } from './records';

const NOT_EXISTS = 'attribute_not_exists(PK)';
const SUBSCRIBER_OF = 'SUBSCRIBER_OF';
const MEMBERSHIP = 'MEMBERSHIP';
const OFFER_SUBSCRIBERS = 'OFFER_SUBSCRIBERS';
const SUBSCRIBER_EMAIL = 'SUBSCRIBER_EMAIL';
/** Scope-free pointer from a subscriber id to its tenant (portal pair, local control API). */
const SUBSCRIBER_LOCATOR = 'subscriber';
/** The portal token: holding it permits cancel and resume. */
export const PORTAL = 'portal';

export const subscriberItem = (scope: Scope, sub: SubscriberRecord) =>
  toItem(keys.entity(scope, SUBSCRIBER, sub._id), 'Subscriber', sub, {
    indexes: [keys.indexed('GSI1', scope, OFFER_SUBSCRIBERS, sub.subscriptionId, sub._id), keys.indexed('GSI2', scope, SUBSCRIBER_EMAIL, sub.buyerEmail, sub._id)],
  });

/** A new subscriber with its guards: one per buyer per offer, the mem_ pointer, locator and portal token. */
export function subscriberPuts(scope: Scope, sub: SubscriberRecord): TransactOp[] {
  const ops: TransactOp[] = [
    { put: subscriberItem(scope, sub), condition: NOT_EXISTS },
    { put: toItem(keys.unique(scope, SUBSCRIBER_OF, `${sub.subscriptionId}#${sub.buyerEmail}`), 'SubscriberOf', { subscriberId: sub._id }), condition: NOT_EXISTS },
    { put: toItem(keys.capability(SUBSCRIBER_LOCATOR, sub._id), 'SubscriberLocator', { accountId: scope.accountId, mode: scope.mode }) },
    { put: toItem(keys.capability(PORTAL, sub.portalToken), 'PortalCapability', { accountId: scope.accountId, mode: scope.mode, subscriberId: sub._id, subscriptionId: sub.subscriptionId }), condition: NOT_EXISTS },
  ];
  if (sub.membershipId) ops.push(membershipPointer(scope, sub.membershipId, sub._id));
  return ops;
}

export const membershipPointer = (scope: Scope, membershipId: string, subscriberId: string): TransactOp => ({
  put: toItem(keys.unique(scope, MEMBERSHIP, membershipId), 'MembershipPointer', { subscriberId }),
  condition: NOT_EXISTS,
});

/**
 * Writes the whole record back, guarded by the `updatedAt` it was read with: two racing changes
 * cannot both win, and the loser's transaction (with its events) is dropped.
 */
export function subscriberReplace(scope: Scope, before: SubscriberRecord, after: SubscriberRecord): TransactOp {
  return { put: subscriberItem(scope, after), condition: 'updatedAt = :seen', values: { ':seen': before.updatedAt } };
}

export async function getSubscriber(store: Store, scope: Scope, id: string, consistent = false): Promise<SubscriberRecord | undefined> {
  return toRecord<SubscriberRecord>(await store.get(keys.entity(scope, SUBSCRIBER, id), { consistent }));
}

export async function findSubscriberOf(store: Store, scope: Scope, offerId: string, email: string): Promise<SubscriberRecord | undefined> {
  const pointer = await store.get<{ subscriberId: string }>(keys.unique(scope, SUBSCRIBER_OF, `${offerId}#${email}`), { consistent: true });
  return pointer ? getSubscriber(store, scope, pointer.subscriberId, true) : undefined;
}

export async function findSubscriberByMembership(store: Store, scope: Scope, membershipId: string): Promise<SubscriberRecord | undefined> {
  const pointer = await store.get<{ subscriberId: string }>(keys.unique(scope, MEMBERSHIP, membershipId), { consistent: true });
  return pointer ? getSubscriber(store, scope, pointer.subscriberId, true) : undefined;
}

export async function locateSubscriber(store: Store, subscriberId: string): Promise<Scope | undefined> {
  const locator = await store.get<{ accountId: string; mode: Scope['mode'] }>(keys.capability(SUBSCRIBER_LOCATOR, subscriberId));
  return locator ? { accountId: locator.accountId, mode: locator.mode } : undefined;
}

export async function findPortalToken(store: Store, token: string) {
  return store.get<{ accountId: string; mode: Scope['mode']; subscriberId: string; subscriptionId: string }>(keys.capability(PORTAL, token));
}

export async function listSubscribers(
  store: Store,
  scope: Scope,
  filter: { status?: string; email?: string; subscriptionId?: string },
  page: number,
  pageSize: number,
) {
  const partition = filter.subscriptionId
    ? keys.indexPartition('GSI1', scope, OFFER_SUBSCRIBERS, filter.subscriptionId)
    : filter.email
      ? keys.indexPartition('GSI2', scope, SUBSCRIBER_EMAIL, filter.email)
      : { pk: keys.collection(scope, SUBSCRIBER) };
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
  const result = await store.queryPage(
    { ...partition, filter: conditions.length ? { expression: conditions.join(' AND '), names: Object.keys(names).length ? names : undefined, values } : undefined },
    page,
    pageSize,
  );
  return { ...result, items: result.items.map((item) => toRecord<SubscriberRecord>(item)!) };
}

/** One page of an offer's subscribers in id order (GSI1), for consumers that walk them (memberships). */
export async function subscribersOfOfferPage(store: Store, scope: Scope, offerId: string, cursor: string | undefined, limit: number) {
  const partition = keys.indexPartition('GSI1', scope, OFFER_SUBSCRIBERS, offerId);
  const result = await store.query({ ...partition, ascending: true, limit, cursor });
  return { items: result.items.map((item) => toRecord<SubscriberRecord>(item)!), cursor: result.cursor };
}
