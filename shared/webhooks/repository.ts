import type { Key, Scope } from '../store/keys';
import { mergeShards } from '../store/shards';
import { createUnique, onConditionFailed } from '../store/conditional';
import { groupCommit, perOwner } from '../store/group-commit';
import { toRecord, type Item, type QueryPage, type Store } from '../store/store';
import { attemptEntity, attemptPartitions, deliveryEntity, deliveryKeyBefore, endpointCountEntity, endpointEntity } from './entities';
import { fromStoredAttempt, toStoredAttempt, type StoredAttempt } from './stored-attempt';
import { forgetEndpoints } from './endpoint-cache';
import { LOG_RETENTION_SECONDS, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from './records';

const endpointKey = endpointEntity.declaration.key;
const deliveryKey = deliveryEntity.declaration.key;
const attemptKey = attemptEntity.declaration.key;

const expiry = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000) + LOG_RETENTION_SECONDS;

// ---- endpoints ----

/**
 * Creates the endpoint and counts it in one transaction that holds only while the count is under
 * `limit`, so concurrent creates can never pass the limit. False when the limit is reached.
 */
export async function putEndpoint(store: Store, scope: Scope, endpoint: WebhookEndpoint, limit: number): Promise<boolean> {
  const countKey = endpointCountEntity.declaration.key(scope);
  if (!(await endpointCountEntity.get(store, 'ofTenant', scope))) {
    // Endpoints made before the counter existed are counted once; a concurrent seed loses harmlessly.
    const existing = (await listEndpoints(store, scope)).length;
    await onConditionFailed(store.put(endpointCountEntity.item(countKey, { count: existing }), { ifNotExists: true }), () => undefined);
  }
  forgetEndpoints(store, scope);
  return onConditionFailed(
    store
      .transact([
        { put: endpointEntity.item(endpointKey(scope, endpoint.id), endpoint), condition: 'attribute_not_exists(PK)' },
        { update: countKey, set: {}, add: { count: 1 }, condition: '#n < :limit', names: { '#n': 'count' }, values: { ':limit': limit } },
      ])
      .then(() => true),
    () => false,
  ).finally(() => forgetEndpoints(store, scope));
}

export async function getEndpoint(store: Store, scope: Scope, id: string): Promise<WebhookEndpoint | undefined> {
  return endpointEntity.get(store, 'byId', scope, id);
}

/** A tenant's endpoints: a small, bounded collection (see MAX_ENDPOINTS_PER_MODE). */
export async function listEndpoints(store: Store, scope: Scope): Promise<WebhookEndpoint[]> {
  return endpointEntity.queryAll(store, 'ofTenant', [scope]);
}

export async function updateEndpoint(store: Store, scope: Scope, id: string, change: Partial<WebhookEndpoint>): Promise<WebhookEndpoint | undefined> {
  // Every change drops this process's copy of the tenant's endpoints (endpoint-cache.ts).
  return onConditionFailed(
    async () => toRecord<WebhookEndpoint>(await store.update(endpointKey(scope, id), { set: change }, { mustExist: true })),
    () => undefined,
  ).finally(() => forgetEndpoints(store, scope));
}

export async function deleteEndpoint(store: Store, scope: Scope, id: string): Promise<boolean> {
  try {
    return await deleteEndpointItem(store, scope, id);
  } finally {
    forgetEndpoints(store, scope);
  }
}

async function deleteEndpointItem(store: Store, scope: Scope, id: string): Promise<boolean> {
  const countKey = endpointCountEntity.declaration.key(scope);
  const removed = await onConditionFailed(
    store
      .transact([
        { delete: endpointKey(scope, id), condition: 'attribute_exists(PK)' },
        { update: countKey, set: {}, add: { count: -1 }, condition: 'attribute_exists(PK)' },
      ])
      .then(() => true),
    () => false,
  );
  if (removed) return true;
  // No counter yet (endpoints older than it): a plain delete; the first create counts what is left.
  if (!(await endpointCountEntity.get(store, 'ofTenant', scope))) return (await store.delete(endpointKey(scope, id))) !== undefined;
  return false;
}

// ---- deliveries ----

/** Creates the delivery once; false when it already exists (a retried fan-out). */
export async function createDelivery(store: Store, scope: Scope, delivery: WebhookDelivery): Promise<boolean> {
  return createUnique(store, deliveryEntity.item(deliveryKey(scope, delivery.id), delivery, { expiresAt: expiry(delivery.createdAt) }));
}

/** The item keeps `attemptIds` as a string set (ADD appends to it without reading it first). */
const asDelivery = (record: (Omit<WebhookDelivery, 'attemptIds'> & { attemptIds?: Iterable<string> }) | undefined): WebhookDelivery | undefined =>
  record && { ...record, attemptIds: record.attemptIds ? [...record.attemptIds].sort() : [] };

export async function getDelivery(store: Store, scope: Scope, id: string): Promise<WebhookDelivery | undefined> {
  return asDelivery((await deliveryEntity.get(store, 'byId', scope, id)) ?? (await deliveryEntity.get(store, 'byIdBefore', scope, id)));
}

/**
 * Deliveries an earlier release created (one partition per tenant) and that are still in flight
 * across the upgrade: their retries and log entries keep going on the item where it is. Records
 * claimed there are remembered, so their success is written back there too.
 */
const claimedBefore = new WeakSet<WebhookDelivery>();

/** A conditional write on the delivery's sharded key, then, when that finds nothing to change, on the key before sharding (if the item is there). */
export async function onEitherLayout<T>(store: Store, scope: Scope, id: string, write: (key: Key) => Promise<T>, missed: () => T): Promise<T> {
  const first = await onConditionFailed(
    write(deliveryKey(scope, id)).then((value) => ({ value })),
    () => undefined,
  );
  if (first) return first.value;
  if (!(await deliveryEntity.get(store, 'byIdBefore', scope, id))) return missed();
  return onConditionFailed(write(deliveryKeyBefore(scope, id)), missed);
}

/**
 * Claims attempt `attempt` for one worker and returns the delivery (undefined: not claimable), so
 * two copies of a message (SQS delivers at least once) do not both call the receiver. A claim
 * lapses after `leaseMs`, so a worker that died mid-attempt never blocks the delivery: the queue's
 * redelivery takes it over.
 *
 * The same write adds `attemptId`, the id the attempt's log entry will have, to the delivery's
 * list: the entry is written after the HTTP call, and a crash before the delivery moves on must
 * not leave it unreachable from the event filter. An id whose entry never got written (a crash
 * before or during the call) is skipped when read.
 *
 * With `create` (the fan-out's first message carries the record), the same one write also creates
 * the delivery when it is not there yet: the fan-out then writes nothing to the table. The fields
 * are the ones the fan-out would have written, so a claim that finds the record already there (a
 * duplicate message) sets them to what they are.
 */
export async function claimAttempt(
  store: Store,
  scope: Scope,
  id: string,
  attempt: number,
  attemptId: string,
  nowMs: number,
  leaseMs: number,
  create?: WebhookDelivery,
): Promise<WebhookDelivery | undefined> {
  const claimable = 'attempts = :prev AND #st = :pending AND (attribute_not_exists(claimedAttempt) OR claimedAttempt < :a OR claimUntil < :now)';
  let fields: Record<string, unknown> = {};
  if (create && attempt === 1) {
    const { attemptIds: _ids, ...record } = create;
    const { PK: _pk, SK: _sk, ...item } = deliveryEntity.item(deliveryKey(scope, id), record, { expiresAt: expiry(create.createdAt) });
    fields = item;
  }
  const claim = (key: Key, creates: boolean) =>
    store
      .update(
        key,
        { set: { ...(creates ? fields : {}), claimedAttempt: attempt, claimUntil: nowMs + leaseMs }, add: { attemptIds: new Set([attemptId]) } },
        {
          mustExist: !creates,
          condition: creates ? `attribute_not_exists(PK) OR (${claimable})` : claimable,
          names: { '#st': 'status' },
          values: { ':prev': attempt - 1, ':pending': 'pending', ':a': attempt, ':now': nowMs },
        },
      )
      .then((item) => asDelivery(toRecord<WebhookDelivery>(item)));
  if (create) return onConditionFailed(claim(deliveryKey(scope, id), true), () => undefined);
  const claimed = await onConditionFailed(claim(deliveryKey(scope, id), false), () => undefined);
  if (claimed || !(await deliveryEntity.get(store, 'byIdBefore', scope, id))) return claimed;
  const before = await onConditionFailed(claim(deliveryKeyBefore(scope, id), false), () => undefined);
  if (before) claimedBefore.add(before);
  return before;
}

/** Gives a claim back when the attempt could not be made, so the redelivered message can. */
export async function releaseClaim(store: Store, scope: Scope, id: string, attempt: number): Promise<void> {
  // Another attempt holding the claim now is fine: nothing to give back.
  await onEitherLayout(
    store,
    scope,
    id,
    (key) => store.update(key, { set: { claimUntil: 0 } }, { mustExist: true, condition: 'claimedAttempt = :a', values: { ':a': attempt } }),
    () => undefined,
  );
}

/** Stops a pending delivery whose endpoint went away or was turned off. */
export async function cancelDelivery(store: Store, scope: Scope, id: string, updatedAt: string): Promise<void> {
  // A delivery that is no longer pending (done, failed, gone) stays as it is.
  await onEitherLayout(
    store,
    scope,
    id,
    (key) =>
      store.update(
        key,
        { set: { status: 'canceled', nextAttemptAt: null, updatedAt } },
        { mustExist: true, condition: '#st = :pending', names: { '#st': 'status' }, values: { ':pending': 'pending' } },
      ),
    () => undefined,
  );
}

/** Two batches in flight at most; the entries that arrive meanwhile wait and leave together. */
const LOG_BATCHING = { max: 25, inFlight: 2 };

/**
 * Log entries of concurrent attempts go out together in BatchWriteItem calls (group commit): one
 * request for several deliveries, where each used to make its own. The writes are unconditional:
 * an entry's id is fresh for every claim (never reused), so there is nothing to overwrite.
 */
const logWriter = perOwner((store: Store) =>
  groupCommit(async (items: Item[]) => {
    await store.batchPut(items);
    return items.map(() => undefined);
  }, LOG_BATCHING),
);
/**
 * Logs an attempt, then moves the delivery on. Two plain writes, not one transaction (a
 * transaction bills both items twice): the claim already keeps a second worker off this attempt,
 * and the order keeps every attempt logged. A success given the `claimed` record goes in the
 * log's batches as a whole item; anything else is a conditional update (see the webhooks README).
 * A crash between the two leaves the attempt logged and the delivery where it was, so the redelivered message makes it again once the claim lapses: the
 * receiver sees a duplicate (deliveries are at least once) and the log shows both real attempts.
 * False when another worker already recorded this attempt (a copy that outlived its claim).
 */
export async function recordAttempt(
  store: Store,
  scope: Scope,
  attempt: WebhookAttempt,
  change: Pick<WebhookDelivery, 'status' | 'nextAttemptAt' | 'updatedAt'>,
  /** The delivery as this attempt's claim returned it, and the worker's clock: lets a success skip the conditional update. */
  success?: { claimed: WebhookDelivery; nowMs: () => number },
): Promise<boolean> {
  await logWriter(store)(attemptEntity.item(attemptKey(scope, attempt.id), toStoredAttempt(attempt), { expiresAt: expiry(attempt.createdAt) }));
  if (change.status === 'succeeded' && success && !claimedBefore.has(success.claimed) && holdsClaim(success.claimed, attempt.attempt, success.nowMs())) {
    // A success is final and true, and while this worker's lease holds no copy can have claimed
    // the attempt: whatever else touched the delivery since (a cancel during the call) gives way.
    // Written as a whole item in the log's next batch, after this entry's batch: no condition,
    // and no request of its own.
    const { attemptIds, ...record } = success.claimed;
    const fields = { ...record, ...(attemptIds?.length ? { attemptIds: new Set(attemptIds) } : {}), attempts: attempt.attempt, ...change };
    await logWriter(store)(deliveryEntity.item(deliveryKey(scope, record.id), fields, { expiresAt: expiry(record.createdAt) }));
    return true;
  }
  return onEitherLayout(
    store,
    scope,
    attempt.deliveryId,
    (key) =>
      store
        .update(
          key,
          { set: { attempts: attempt.attempt, ...change } },
          {
            mustExist: true,
            condition: 'attempts = :prev AND #st = :pending',
            names: { '#st': 'status' },
            values: { ':prev': attempt.attempt - 1, ':pending': 'pending' },
          },
        )
        .then(() => true),
    () => false,
  );
}

/**
 * Whether the claim still surely holds: this attempt's, with a margin for the batch it waits on
 * and the clocks of other workers. A record that keeps its body (tests, redeliveries, large
 * bodies) is left to the conditional update, so the body is not sent back.
 */
const CLAIM_MARGIN_MS = 5000;
const holdsClaim = (claimed: WebhookDelivery, attempt: number, nowMs: number) =>
  claimed.body === undefined && claimed.claimedAttempt === attempt && (claimed.claimUntil ?? 0) - CLAIM_MARGIN_MS > nowMs;

// ---- delivery log ----

export async function getAttempt(store: Store, scope: Scope, id: string): Promise<WebhookAttempt | undefined> {
  const stored = await storedAttempt(store, scope, id);
  return stored && fromStoredAttempt(stored);
}

/** A log entry where it is: its write shard, or the partition before sharding. */
async function storedAttempt(store: Store, scope: Scope, id: string): Promise<StoredAttempt | undefined> {
  return ((await attemptEntity.get(store, 'byId', scope, id)) ?? (await attemptEntity.get(store, 'byIdBefore', scope, id))) as StoredAttempt | undefined;
}

export interface AttemptFilters {
  webhookId?: string;
  eventId?: string;
  eventType?: string;
  status?: 'success' | 'failed';
}

/**
 * Newest first; `after` is the id of the last entry already seen. An event id reads that event's
 * deliveries (one per endpoint, plus tests and redeliveries) and the entries they list; otherwise
 * the tenant's log is read in order, the other filters applied as it goes.
 */
export async function listAttempts(
  store: Store,
  scope: Scope,
  filters: AttemptFilters,
  limit: number,
  after?: string,
): Promise<{ items: WebhookAttempt[]; hasMore: boolean; next?: string }> {
  if (filters.eventId) return listAttemptsOfEvent(store, scope, { ...filters, eventId: filters.eventId }, limit, after);
  const page = await listAttemptsMerged(store, scope, filters, limit, after);
  return { items: page.items, hasMore: page.last !== undefined, next: page.last };
}

/**
 * The tenant's log, newest first, merged from its write shards and the partition before sharding
 * (store/shards.ts); `after` and `last` are entry ids (the API's cursor is the last id seen). The filters apply in memory, so each read
 * is one bounded query: a rare filter answers a short page with a cursor to go on.
 */
export async function listAttemptsMerged(
  store: Store,
  scope: Scope,
  filters: Omit<AttemptFilters, 'eventId'>,
  limit: number,
  after?: string,
): Promise<{ items: WebhookAttempt[]; last?: string }> {
  const partitions = attemptPartitions(scope);
  const keep = (e: StoredAttempt) =>
    (!filters.webhookId || e.webhookId === filters.webhookId) &&
    (!filters.eventType || e.eventType === filters.eventType) &&
    (!filters.status || e.status === filters.status);
  const page = await mergeShards<StoredAttempt>({
    shards: partitions.length,
    limit,
    after,
    sortKey: (entry) => entry.id,
    read: async (shard, from, size) => {
      const found = (await attemptEntity.query(store, 'ofShard', [partitions[shard]!], {
        limit: size,
        ...(from === undefined ? {} : { before: from }),
      })) as QueryPage<StoredAttempt>;
      const last = found.cursor !== undefined && found.items.length ? found.items[found.items.length - 1]!.id : undefined;
      return { items: found.items.filter(keep), last };
    },
  });
  return { items: page.items.map(fromStoredAttempt), last: page.last };
}

async function listAttemptsOfEvent(store: Store, scope: Scope, filters: AttemptFilters & { eventId: string }, limit: number, after?: string) {
  const deliveries = (
    await Promise.all(
      [false, true].map((before) => deliveryEntity.queryAll(store, 'ofEvent', [scope, filters.eventId, before], { beginsWith: `${filters.eventId}_` })),
    )
  )
    .flat()
    .map((d) => asDelivery(d)!)
    .filter((d) => d.eventId === filters.eventId && (!filters.webhookId || d.webhookId === filters.webhookId));
  const ids = new Set(deliveries.flatMap((d) => d.attemptIds ?? []));
  // Gets through the entity's declared pattern, 25 at a time (a bounded set: see ofEvent).
  const list = [...ids];
  let entries: StoredAttempt[] = [];
  for (let i = 0; i < list.length; i += 25) {
    const got = await Promise.all(list.slice(i, i + 25).map((id) => storedAttempt(store, scope, id)));
    entries.push(...got.filter((entry): entry is StoredAttempt => entry !== undefined));
  }
  if (deliveries.some((d) => !d.attemptIds?.length && d.attempts > 0)) {
    // Entries logged before deliveries listed their attempts carry the event's index key instead.
    const legacy = (await attemptEntity.queryAll(store, 'ofEventLegacy', [scope, filters.eventId])) as StoredAttempt[];
    entries = [...entries, ...legacy.filter((entry) => !ids.has(entry.id))];
  }
  const items = entries
    .filter(
      (e) =>
        (!after || e.id < after) &&
        (!filters.webhookId || e.webhookId === filters.webhookId) &&
        (!filters.eventType || e.eventType === filters.eventType) &&
        (!filters.status || e.status === filters.status),
    )
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map(fromStoredAttempt);
  const page = items.slice(0, limit);
  return { items: page, hasMore: items.length > limit, next: items.length > limit ? page[page.length - 1]!.id : undefined };
}
