import { putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { analyticsDayEntity, analyticsDoneEntity, analyticsRecurringEntity, analyticsSubscriberEntity, type DayItem, type SubscriberShare } from './entities';
import { shardOf, WRITE_SHARDS } from './rules';

const MARKER_TTL_SECONDS = 30 * 24 * 3600;
const shards = () => Array.from({ length: WRITE_SHARDS }, (_, shard) => shard);

/** Adds counters to a day item of a shard (created by the first ADD, with its entity and date); `set` names what was sold. */
export const dayAdd = (scope: Scope, shard: number, date: string, add: Record<string, number>, set: Record<string, string> = {}): TransactOp => ({
  update: analyticsDayEntity.declaration.key(scope, shard, date),
  set: { ...set, entity: analyticsDayEntity.declaration.entity, v: analyticsDayEntity.declaration.version, date },
  add,
});

/** The marker of a counted event: a second delivery's transaction fails on it and adds nothing. */
export const countedMarker = (scope: Scope, eventId: string, created: number): TransactOp =>
  putNew(
    analyticsDoneEntity.item(analyticsDoneEntity.declaration.key(scope, shardOf(eventId), eventId), { eventId }, { expiresAt: created + MARKER_TTL_SECONDS }),
  );

/** Every shard's day items from `from` to `to` (both included), read in parallel. */
export async function daysBetween(store: Store, scope: Scope, from: string, to: string): Promise<DayItem[]> {
  const pages = await Promise.all(shards().map((shard) => analyticsDayEntity.queryAll(store, 'range', [scope, shard], { between: [from, to] })));
  return pages.flat();
}

/** Every shard's recurring counters, in one batch read. */
export const recurringShards = (store: Store, scope: Scope): Promise<Record<string, unknown>[]> =>
  analyticsRecurringEntity.getMany(
    store,
    'byShard',
    shards().map((shard): [Scope, number] => [scope, shard]),
  );

export const recurringAdd = (scope: Scope, shard: number, add: Record<string, number>): TransactOp => ({
  update: analyticsRecurringEntity.declaration.key(scope, shard),
  set: { entity: analyticsRecurringEntity.declaration.entity, v: analyticsRecurringEntity.declaration.version },
  add,
});

export const getSubscriberShare = (store: Store, scope: Scope, subscriberId: string) =>
  analyticsSubscriberEntity.get(store, 'byId', scope, shardOf(subscriberId), subscriberId);

/** Writes a subscriber's new share, only over the revision that was read (or where none was). */
export function subscriberShareWrite(scope: Scope, next: SubscriberShare, readRev: number | undefined): TransactOp {
  const item = analyticsSubscriberEntity.item(analyticsSubscriberEntity.declaration.key(scope, shardOf(next.subscriberId), next.subscriberId), next);
  return readRev === undefined ? putNew(item) : { put: item, condition: 'rev = :rev', values: { ':rev': readRev } };
}
