import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './records';

const ENDPOINT = 'WEBHOOK';
const DELIVERY = 'WEBHOOK_DELIVERY';
const ATTEMPT = 'WEBHOOK_ATTEMPT';
const endpointKey = (scope: Scope, id: string) => keys.entity(scope, ENDPOINT, id);
// Deliveries and log entries are write-sharded (store/shards.ts): a delivery by its event's id, so
// the deliveries of one event share a shard; a log entry by its own id. The `…Before` keys are the
// single partitions releases before sharding wrote, read until their 30-day TTL empties them.
const deliveryKey = (scope: Scope, id: string) => keys.sharded(scope, DELIVERY, id, id.split('_')[0]);
const attemptKey = (scope: Scope, id: string) => keys.sharded(scope, ATTEMPT, id);
export const deliveryKeyBefore = (scope: Scope, id: string) => keys.entity(scope, DELIVERY, id);
export const attemptKeyBefore = (scope: Scope, id: string) => keys.entity(scope, ATTEMPT, id);
/** The partitions a delivery list reads: every write shard, then the partition before sharding. */
export const deliveryPartitions = (scope: Scope) => [...keys.shards(scope, DELIVERY), keys.collection(scope, DELIVERY)];
export const attemptPartitions = (scope: Scope) => [...keys.shards(scope, ATTEMPT), keys.collection(scope, ATTEMPT)];

export const endpointEntity = defineEntity<WebhookEndpoint>()({
  entity: 'WebhookEndpoint',
  version: 1,
  owner: 'webhooks',
  key: endpointKey,
  keyArgs: ['scope', 'webhookId'],
  patterns: {
    byId: { kind: 'get', summary: 'Webhook endpoint by id', key: endpointKey, args: ['scope', 'webhookId'], consistent: true },
    ofTenant: {
      kind: 'query',
      summary: 'Webhook endpoints of a tenant (fan-out, list)',
      partition: (scope: Scope) => keys.collection(scope, ENDPOINT),
      args: ['scope'],
      notes: 'bounded: 50 per mode',
    },
  },
});

const countKey = (scope: Scope) => keys.entity(scope, 'WEBHOOK_COUNT', 'endpoints');

/** How many endpoints a mode has: create and delete move it in their own transaction, so the limit holds under races. */
export const endpointCountEntity = defineEntity<{ count: number }>()({
  entity: 'WebhookEndpointCount',
  version: 1,
  owner: 'webhooks',
  key: countKey,
  keyArgs: ['scope'],
  patterns: {
    ofTenant: { kind: 'get', summary: 'Endpoint count of a tenant (limit check)', key: countKey, args: ['scope'], consistent: true },
  },
  summary: 'Counter of endpoints per mode, conditioned on the limit',
});

export const deliveryEntity = defineEntity<WebhookDelivery>()({
  entity: 'WebhookDelivery',
  version: 1,
  owner: 'webhooks',
  key: deliveryKey,
  keyArgs: ['scope', 'eventId_webhookId[_replayId]'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Webhook delivery of an event to an endpoint',
      key: deliveryKey,
      args: ['scope', 'eventId_webhookId[_replayId]'],
      consistent: true,
      notes: 'created once with a condition; TTL 30 days; write shard of the event id',
    },
    byIdBefore: {
      kind: 'get',
      summary: 'Webhook delivery written before write shards (in flight across an upgrade)',
      key: deliveryKeyBefore,
      args: ['scope', 'eventId_webhookId[_replayId]'],
      consistent: true,
      notes: 'TTL 30 days',
    },
    ofTenantMentioning: {
      kind: 'query',
      summary: 'Webhook deliveries whose kept body mentions an erased buyer (erasure worker only), one partition of deliveryPartitions',
      partition: (partition: string) => partition,
      args: ['<scope>#WEBHOOK_DELIVERY[#<shard>]'],
      condition: 'filter contains(body, <address>)',
      notes: 'reads the 30 days of deliveries; never on a request path',
    },
    ofEvent: {
      kind: 'query',
      summary: 'Webhook deliveries of one event (delivery-log filter by event): its shard, and the partition before sharding',
      partition: (scope: Scope, eventId: string, before: boolean) => (before ? keys.collection(scope, DELIVERY) : keys.sharded(scope, DELIVERY, eventId).PK),
      args: ['scope', 'eventId', 'before sharding'],
      condition: 'begins_with(SK, <eventId>_)',
      notes: 'bounded: one per endpoint (50) plus test deliveries and redeliveries of the event',
    },
  },
});

export const attemptEntity = defineEntity<WebhookAttempt>()({
  entity: 'WebhookAttempt',
  version: 1,
  owner: 'webhooks',
  key: attemptKey,
  keyArgs: ['scope', 'attemptId'],
  // No index keys: an index with the table's ALL projection copies the whole entry once more per
  // index (2 of the 3 units it cost). The event filter goes through the deliveries instead.
  notes: 'TTL 30 days; no index keys',
  patterns: {
    byId: { kind: 'get', summary: 'Webhook delivery log entry by id', key: attemptKey, args: ['scope', 'attemptId'] },
    byIdBefore: { kind: 'get', summary: 'Webhook delivery log entry written before write shards', key: attemptKeyBefore, args: ['scope', 'attemptId'] },
    ofShard: {
      kind: 'query',
      summary: 'Webhook delivery log, newest first, one partition of attemptPartitions (the list merges them in id order)',
      partition: (partition: string) => partition,
      args: ['<scope>#WEBHOOK_ATTEMPT[#<shard>]'],
      condition: 'SK < <after> (cursor); endpoint, type and status filtered in memory',
      notes: "reads past other endpoints' entries (at most 50 endpoints per mode)",
    },
    ofEventLegacy: {
      kind: 'query',
      summary: 'Webhook delivery log of one event, entries written before deliveries listed their attempts',
      partition: (scope: Scope, eventId: string) => keys.indexPartition('GSI2', scope, 'EVENT_WEBHOOK_ATTEMPTS', eventId),
      args: ['scope', 'eventId'],
      notes: 'read only for a delivery without attemptIds; empty once those entries expire (30 days)',
    },
  },
});
