import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import { SUBSCRIBER, type SubscriberRecord } from './records';

const SUBSCRIBER_OF = 'SUBSCRIBER_OF';
const MEMBERSHIP = 'MEMBERSHIP';
const OFFER_SUBSCRIBERS = 'OFFER_SUBSCRIBERS';
const SUBSCRIBER_EMAIL = 'SUBSCRIBER_EMAIL';
/** Scope-free pointer from a subscriber id to its tenant (portal pair, local control API). */
const SUBSCRIBER_LOCATOR = 'subscriber';
/** The portal token: holding it permits cancel and resume. */
export const PORTAL = 'portal';
export const TIMERS_CONSUMER = 'subscription-timers';

const subscriberKey = (scope: Scope, id: string) => keys.entity(scope, SUBSCRIBER, id);
const subscriberOfKey = (scope: Scope, offerId: string, email: string) => keys.unique(scope, SUBSCRIBER_OF, `${offerId}#${email}`);
const membershipKey = (scope: Scope, membershipId: string) => keys.unique(scope, MEMBERSHIP, membershipId);
const locatorKey = (subscriberId: string) => keys.capability(SUBSCRIBER_LOCATOR, subscriberId);
const portalKey = (token: string) => keys.capability(PORTAL, token);
const timerMarkerKey = (marker: string) => keys.processed(TIMERS_CONSUMER, marker);

export interface PortalCapability {
  accountId: string;
  mode: Scope['mode'];
  subscriberId: string;
  subscriptionId: string;
}

export const subscriberEntity = defineEntity<SubscriberRecord>()({
  entity: 'Subscriber',
  version: 1,
  owner: 'subscriptions',
  key: subscriberKey,
  keyArgs: ['scope', 'subscriberId'],
  indexes: {
    ofOffer: {
      index: 'GSI1',
      key: (scope: Scope, offerId: string, id: string) => keys.indexed('GSI1', scope, OFFER_SUBSCRIBERS, offerId, id),
      args: ['scope', 'offerId', 'subscriberId'],
    },
    ofEmail: {
      index: 'GSI2',
      key: (scope: Scope, email: string, id: string) => keys.indexed('GSI2', scope, SUBSCRIBER_EMAIL, email, id),
      args: ['scope', 'email', 'subscriberId'],
    },
  },
  patterns: {
    byId: { kind: 'get', summary: 'Subscriber by id', key: subscriberKey, args: ['scope', 'subscriberId'] },
    latest: {
      kind: 'get',
      summary: 'Subscriber by id, read consistently (before a change)',
      key: subscriberKey,
      args: ['scope', 'subscriberId'],
      consistent: true,
    },
    all: {
      kind: 'query',
      summary: 'All subscribers',
      partition: (scope: Scope) => keys.collection(scope, SUBSCRIBER),
      args: ['scope'],
      condition: 'filter status',
    },
    ofOffer: {
      kind: 'query',
      summary: 'Subscribers of an offer',
      partition: (scope: Scope, offerId: string) => keys.indexPartition('GSI1', scope, OFFER_SUBSCRIBERS, offerId),
      args: ['scope', 'offerId'],
      condition: 'filter status, buyerEmail',
    },
    ofEmail: {
      kind: 'query',
      summary: 'Subscribers of a buyer email',
      partition: (scope: Scope, email: string) => keys.indexPartition('GSI2', scope, SUBSCRIBER_EMAIL, email),
      args: ['scope', 'email'],
      condition: 'filter status',
    },
  },
  notes: 'replaced whole, conditioned on the updatedAt it was read with',
});

export const subscriberOfEntity = defineEntity<{ subscriberId: string }>()({
  entity: 'SubscriberOf',
  version: 1,
  owner: 'subscriptions',
  key: subscriberOfKey,
  keyArgs: ['scope', 'offerId', 'email'],
  patterns: {
    byBuyer: {
      kind: 'get',
      summary: 'One subscriber per buyer per offer',
      key: subscriberOfKey,
      args: ['scope', 'offerId', 'email'],
      consistent: true,
      notes: 'holds subscriberId',
    },
  },
});

export const membershipPointerEntity = defineEntity<{ subscriberId: string }>()({
  entity: 'MembershipPointer',
  version: 1,
  owner: 'subscriptions',
  key: membershipKey,
  keyArgs: ['scope', 'mem_id'],
  patterns: {
    byMembership: {
      kind: 'get',
      summary: 'Subscriber by mem_ id',
      key: membershipKey,
      args: ['scope', 'mem_id'],
      consistent: true,
      notes: 'holds subscriberId',
    },
  },
});

export const subscriberLocatorEntity = defineEntity<{ accountId: string; mode: Scope['mode'] }>()({
  entity: 'SubscriberLocator',
  version: 1,
  owner: 'subscriptions',
  key: locatorKey,
  keyArgs: ['subscriberId'],
  patterns: {
    bySubscriber: {
      kind: 'get',
      summary: 'Subscriber locator (local control API, portal pair)',
      key: locatorKey,
      args: ['subscriberId'],
      notes: 'holds accountId and mode',
    },
  },
});

export const portalEntity = defineEntity<PortalCapability>()({
  entity: 'PortalCapability',
  version: 1,
  owner: 'subscriptions',
  key: portalKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Portal token', key: portalKey, args: ['token'], notes: 'permits portal cancel and resume' },
  },
});

export const timerMarkerEntity = defineEntity<{ marker: string }>()({
  entity: 'ProcessedTimer',
  version: 1,
  owner: 'subscriptions',
  key: timerMarkerKey,
  keyArgs: ['<type>:<subscriberId>:<periodEnd>'],
  patterns: {},
  summary: 'Subscription timer fired once per period',
  notes: 'TTL 30 days; created with the event it fires, conditioned on a free key',
});
