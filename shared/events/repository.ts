import { COMPRESSED_EVENT, EVENT_MENTIONS, eventFromItem, eventText, OUTBOX_ENTITY, storedEventText, type DomainEvent } from '../platform/events';
import { keys, type Key, type Scope } from '../store/keys';
import { decodeShardCursor, encodeShardCursor, mergeShards } from '../store/shards';
import type { Item, Store } from '../store/store';
import { TABLE } from '../store/table';

/**
 * Reads of the outbox: write-sharded partitions `<scope>#EVENT#<n>` (time-ordered event ids, 30-day
 * TTL), plus the single `<scope>#EVENT` partition that releases before sharding wrote, read as one
 * more shard until its TTL has emptied it. Only this capability reads it; it grows with every
 * change, so it is only ever read a page at a time.
 */

/** The partitions a list merges: the write shards, then the partition of the layout before them. */
export const outboxPartitions = (scope: Scope) => [...keys.outboxShards(scope), keys.outboxPartitionBefore(scope)];

export async function getEvent(store: Store, scope: Scope, eventId: string, nowSeconds: number): Promise<DomainEvent | undefined> {
  const item =
    (await store.get<Record<string, unknown>>(keys.outbox(scope, eventId))) ?? (await store.get<Record<string, unknown>>(keys.outboxBefore(scope, eventId)));
  if (!item || typeof item[TABLE.ttlAttribute] !== 'number' || (item[TABLE.ttlAttribute] as number) <= nowSeconds) return undefined;
  return eventFromItem(item);
}

/**
 * Newest first, `limit` at most, merged from every partition in id order; the cursor is the last id
 * answered (shards.ts). The type filter applies in memory, so each read is one bounded query and a
 * rare type answers a short page (with a cursor to go on) rather than reading 30 days of events.
 */
export async function listEvents(
  store: Store,
  scope: Scope,
  options: { type?: string; limit: number; cursor?: string; nowSeconds: number },
): Promise<{ events: DomainEvent[]; cursor?: string }> {
  const partitions = outboxPartitions(scope);
  const page = await mergeShards<Item>({
    shards: partitions.length,
    limit: options.limit,
    after: decodeShardCursor(scope, options.cursor),
    sortKey: (item) => String(item.SK),
    read: async (shard, after, limit) => {
      const found = await store.query<Item>({ pk: partitions[shard]!, limit, ...(after === undefined ? {} : { before: after }) });
      const kept = found.items.filter(
        (item) =>
          item.entity === OUTBOX_ENTITY &&
          typeof item[TABLE.ttlAttribute] === 'number' &&
          (item[TABLE.ttlAttribute] as number) > options.nowSeconds &&
          (!options.type || item.eventType === options.type),
      );
      const last = found.cursor !== undefined && found.items.length ? String(found.items[found.items.length - 1]!.SK) : undefined;
      return { items: kept, last };
    },
  });
  const events = page.items.map(eventFromItem).filter((event): event is DomainEvent => event !== undefined);
  return { events, cursor: encodeShardCursor(scope, page.last) };
}

/** Every event of a tenant's outbox, oldest first (the local control API and tests; never a request path). */
export async function allEvents(store: Store, scope: Scope): Promise<DomainEvent[]> {
  const items = (await Promise.all(outboxPartitions(scope).map((pk) => store.queryAll<Item>({ pk, ascending: true })))).flat();
  return items
    .map(eventFromItem)
    .filter((event): event is DomainEvent => event !== undefined)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * One page of one outbox partition's events whose text mentions `needle` (an erased buyer's
 * address): the filter runs in DynamoDB, so only those travel. The erasure worker walks every
 * partition of `outboxPartitions` this way (the whole 30 days of an account): never a request path.
 */
export async function eventsMentioningPage(store: Store, partition: string, needle: string, cursor: string | undefined) {
  const page = await store.query<Record<string, unknown>>({
    pk: partition,
    ascending: true,
    cursor,
    filter: {
      // A compressed event's addresses are kept apart in plain text (platform/events.ts).
      expression: '#entity = :entity AND (contains(#event, :needle) OR contains(#mentions, :needle))',
      names: { '#entity': 'entity', '#event': 'event', '#mentions': EVENT_MENTIONS },
      values: { ':entity': OUTBOX_ENTITY, ':needle': needle },
    },
  });
  return {
    items: page.items.map((item) => ({ key: { PK: String(item.PK), SK: String(item.SK) }, text: eventText(item) ?? '' })),
    cursor: page.cursor,
  };
}

/**
 * An event's stored text rewritten (an erasure), in the form its size calls for: the addresses kept
 * apart are those of the new text. The stream sees a MODIFY, which the dispatcher ignores: nothing
 * is sent again.
 */
export const rewriteEvent = (store: Store, key: Key, text: string) => {
  const stored = storedEventText(text);
  const remove = ['event', COMPRESSED_EVENT, EVENT_MENTIONS].filter((name) => !(name in stored));
  return store.update(key, { set: stored, remove }, { mustExist: true });
};
