import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './records';

const ENDPOINT = 'WEBHOOK';
const DELIVERY = 'WEBHOOK_DELIVERY';
const ATTEMPT = 'WEBHOOK_ATTEMPT';
const ATTEMPTS_BY_WEBHOOK = 'WEBHOOK_ATTEMPTS';
const ATTEMPTS_BY_EVENT = 'EVENT_WEBHOOK_ATTEMPTS';
const endpointKey = (scope: Scope, id: string) => keys.entity(scope, ENDPOINT, id);
const deliveryKey = (scope: Scope, id: string) => keys.entity(scope, DELIVERY, id);
const attemptKey = (scope: Scope, id: string) => keys.entity(scope, ATTEMPT, id);

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
      notes: 'created once with a condition; TTL 30 days',
    },
  },
});

export const attemptEntity = defineEntity<WebhookAttempt>()({
  entity: 'WebhookAttempt',
  version: 1,
  owner: 'webhooks',
  key: attemptKey,
  keyArgs: ['scope', 'attemptId'],
  indexes: {
    ofEndpoint: { index: 'GSI1', key: (scope: Scope, webhookId: string, id: string) => keys.indexed('GSI1', scope, ATTEMPTS_BY_WEBHOOK, webhookId, id), args: ['scope', 'webhookId', 'attemptId'] },
    ofEvent: { index: 'GSI2', key: (scope: Scope, eventId: string, id: string) => keys.indexed('GSI2', scope, ATTEMPTS_BY_EVENT, eventId, id), args: ['scope', 'eventId', 'attemptId'] },
  },
  notes: 'TTL 30 days',
  patterns: {
    byId: { kind: 'get', summary: 'Webhook delivery log entry by id', key: attemptKey, args: ['scope', 'attemptId'] },
    ofTenant: {
      kind: 'query',
      summary: 'Webhook delivery log, newest first',
      partition: (scope: Scope) => keys.collection(scope, ATTEMPT),
      args: ['scope'],
      condition: 'SK < <after> (cursor)',
    },
    ofEndpoint: {
      kind: 'query',
      summary: 'Webhook delivery log of one endpoint',
      partition: (scope: Scope, webhookId: string) => keys.indexPartition('GSI1', scope, ATTEMPTS_BY_WEBHOOK, webhookId),
      args: ['scope', 'webhookId'],
    },
    ofEvent: {
      kind: 'query',
      summary: 'Webhook delivery log of one event',
      partition: (scope: Scope, eventId: string) => keys.indexPartition('GSI2', scope, ATTEMPTS_BY_EVENT, eventId),
      args: ['scope', 'eventId'],
    },
  },
});
