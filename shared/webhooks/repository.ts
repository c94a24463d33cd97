import type { IndexName } from '../store/table';
import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { ConditionFailed, toRecord, type Store } from '../store/store';
import { LOG_RETENTION_SECONDS, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from './records';

const ENDPOINT = 'WEBHOOK';
const DELIVERY = 'WEBHOOK_DELIVERY';
const ATTEMPT = 'WEBHOOK_ATTEMPT';
const ATTEMPTS_BY_WEBHOOK = 'WEBHOOK_ATTEMPTS';
const ATTEMPTS_BY_EVENT = 'EVENT_WEBHOOK_ATTEMPTS';

const expiry = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + LOG_RETENTION_SECONDS;

// ---- endpoints ----

const ENDPOINT_COUNT = 'WEBHOOK_COUNT';
const countKey = (scope: Scope) => keys.entity(scope, ENDPOINT_COUNT, 'endpoints');

/**
 * Creates the endpoint and counts it in one transaction that holds only while the count is under
 * `limit`, so concurrent creates can never pass the limit. False when the limit is reached.
 */
export async function putEndpoint(store: Store, scope: Scope, endpoint: WebhookEndpoint, limit: number): Promise<boolean> {
  const counter = await store.get<{ count: number }>(countKey(scope), { consistent: true });
  if (!counter) {
    // Endpoints made before the counter existed are counted once; a concurrent seed loses harmlessly.
    const existing = (await listEndpoints(store, scope)).length;
    await store.put(toItem(countKey(scope), 'WebhookEndpointCount', { count: existing }), { ifNotExists: true }).catch((error) => {
      if (!(error instanceof ConditionFailed)) throw error;
    });
  }
  try {
    await store.transact([
      { put: toItem(keys.entity(scope, ENDPOINT, endpoint.id), 'WebhookEndpoint', endpoint), condition: 'attribute_not_exists(PK)' },
      { update: countKey(scope), set: {}, add: { count: 1 }, condition: '#n < :limit', names: { '#n': 'count' }, values: { ':limit': limit } },
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function getEndpoint(store: Store, scope: Scope, id: string): Promise<WebhookEndpoint | undefined> {
  return toRecord<WebhookEndpoint>(await store.get(keys.entity(scope, ENDPOINT, id), { consistent: true }));
}

/** A tenant's endpoints: a small, bounded collection (see MAX_ENDPOINTS_PER_MODE). */
export async function listEndpoints(store: Store, scope: Scope): Promise<WebhookEndpoint[]> {
  return (await store.queryAll({ pk: keys.collection(scope, ENDPOINT) })).map((item) => toRecord<WebhookEndpoint>(item)!);
}

export async function updateEndpoint(store: Store, scope: Scope, id: string, change: Partial<WebhookEndpoint>): Promise<WebhookEndpoint | undefined> {
  try {
    return toRecord<WebhookEndpoint>(await store.update(keys.entity(scope, ENDPOINT, id), { set: change }, { mustExist: true }));
  } catch (error) {
    if (error instanceof ConditionFailed) return undefined;
    throw error;
  }
}

export async function deleteEndpoint(store: Store, scope: Scope, id: string): Promise<boolean> {
  try {
    await store.transact([
      { delete: keys.entity(scope, ENDPOINT, id), condition: 'attribute_exists(PK)' },
      { update: countKey(scope), set: {}, add: { count: -1 }, condition: 'attribute_exists(PK)' },
    ]);
    return true;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    // No counter yet (endpoints older than it): a plain delete; the first create counts what is left.
    if (!(await store.get(countKey(scope), { consistent: true }))) return (await store.delete(keys.entity(scope, ENDPOINT, id))) !== undefined;
    return false;
  }
}

// ---- deliveries ----

/** Creates the delivery once; false when it already exists (a retried fan-out). */
export async function createDelivery(store: Store, scope: Scope, delivery: WebhookDelivery): Promise<boolean> {
  try {
    await store.put(toItem(keys.entity(scope, DELIVERY, delivery.id), 'WebhookDelivery', delivery, { expiresAt: expiry(delivery.createdAt) }), { ifNotExists: true });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function getDelivery(store: Store, scope: Scope, id: string): Promise<WebhookDelivery | undefined> {
  return toRecord<WebhookDelivery>(await store.get(keys.entity(scope, DELIVERY, id), { consistent: true }));
}

/**
 * Claims attempt `attempt` for one worker and returns the delivery (undefined: not claimable), so two copies of a message (SQS delivers at least
 * once) do not both call the receiver. A claim lapses after `leaseMs`, so a worker that died
 * mid-attempt never blocks the delivery: the queue's redelivery takes it over.
 */
export async function claimAttempt(store: Store, scope: Scope, id: string, attempt: number, nowMs: number, leaseMs: number): Promise<WebhookDelivery | undefined> {
  try {
    const item = await store.update(
      keys.entity(scope, DELIVERY, id),
      { set: { claimedAttempt: attempt, claimUntil: nowMs + leaseMs } },
      {
        mustExist: true,
        condition: 'attempts = :prev AND #st = :pending AND (attribute_not_exists(claimedAttempt) OR claimedAttempt < :a OR claimUntil < :now)',
        names: { '#st': 'status' },
        values: { ':prev': attempt - 1, ':pending': 'pending', ':a': attempt, ':now': nowMs },
      },
    );
    return toRecord<WebhookDelivery>(item);
  } catch (error) {
    if (error instanceof ConditionFailed) return undefined;
    throw error;
  }
}

/** Gives a claim back when the attempt could not be made, so the redelivered message can. */
export async function releaseClaim(store: Store, scope: Scope, id: string, attempt: number): Promise<void> {
  try {
    await store.update(keys.entity(scope, DELIVERY, id), { set: { claimUntil: 0 } }, { condition: 'claimedAttempt = :a', values: { ':a': attempt } });
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/** Stops a pending delivery whose endpoint went away or was turned off. */
export async function cancelDelivery(store: Store, scope: Scope, id: string, updatedAt: string): Promise<void> {
  try {
    await store.update(keys.entity(scope, DELIVERY, id), { set: { status: 'canceled', nextAttemptAt: null, updatedAt } }, { mustExist: true, condition: '#st = :pending', names: { '#st': 'status' }, values: { ':pending': 'pending' } });
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/**
 * Logs an attempt and moves the delivery on, together. The condition makes a duplicate queue
 * message that raced this one lose: false means another worker already recorded this attempt.
 */
export async function recordAttempt(
  store: Store,
  scope: Scope,
  attempt: WebhookAttempt,
  change: Pick<WebhookDelivery, 'status' | 'nextAttemptAt' | 'updatedAt'>,
): Promise<boolean> {
  try {
    await store.transact([
      {
        put: toItem(keys.entity(scope, ATTEMPT, attempt.id), 'WebhookAttempt', attempt, {
          indexes: [keys.indexed('GSI1', scope, ATTEMPTS_BY_WEBHOOK, attempt.webhookId, attempt.id), keys.indexed('GSI2', scope, ATTEMPTS_BY_EVENT, attempt.eventId, attempt.id)],
          expiresAt: expiry(attempt.createdAt),
        }),
        condition: 'attribute_not_exists(PK)',
      },
      {
        update: keys.entity(scope, DELIVERY, attempt.deliveryId),
        set: { attempts: attempt.attempt, ...change },
        condition: 'attempts = :prev AND #st = :pending',
        names: { '#st': 'status' },
        values: { ':prev': attempt.attempt - 1, ':pending': 'pending' },
      },
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

// ---- delivery log ----

export async function getAttempt(store: Store, scope: Scope, id: string): Promise<WebhookAttempt | undefined> {
  return toRecord<WebhookAttempt>(await store.get(keys.entity(scope, ATTEMPT, id)));
}

export interface AttemptFilters {
  webhookId?: string;
  eventId?: string;
  eventType?: string;
  status?: 'success' | 'failed';
}

/**
 * Newest first. An event id or an endpoint id picks the narrowest partition (GSI2, GSI1); the
 * remaining filters apply on that partition. `after` is the id of the last entry already seen.
 */
export async function listAttempts(store: Store, scope: Scope, filters: AttemptFilters, limit: number, after?: string): Promise<{ items: WebhookAttempt[]; hasMore: boolean }> {
  let partition: { pk: string; index?: IndexName };
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const filterOn = (field: string, value: string | undefined) => {
    if (value === undefined) return;
    names[`#f_${field}`] = field;
    values[`:f_${field}`] = value;
    conditions.push(`#f_${field} = :f_${field}`);
  };
  if (filters.eventId) {
    partition = keys.indexPartition('GSI2', scope, ATTEMPTS_BY_EVENT, filters.eventId);
    filterOn('webhookId', filters.webhookId);
  } else if (filters.webhookId) {
    partition = keys.indexPartition('GSI1', scope, ATTEMPTS_BY_WEBHOOK, filters.webhookId);
  } else {
    partition = { pk: keys.collection(scope, ATTEMPT) };
  }
  filterOn('eventType', filters.eventType);
  filterOn('status', filters.status);
  const page = await store.query({
    pk: partition.pk,
    index: partition.index,
    before: after,
    limit: limit + 1,
    filter: conditions.length ? { expression: conditions.join(' AND '), names, values } : undefined,
  });
  const items = page.items.map((item) => toRecord<WebhookAttempt>(item)!);
  return { items: items.slice(0, limit), hasMore: items.length > limit };
}
