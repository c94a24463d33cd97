import { eventFromItem, OUTBOX_ENTITY, type DomainEvent } from '../platform/events';
import { keys, type Scope } from '../store/keys';
import type { Store } from '../store/store';
import { TABLE } from '../store/table';

/**
 * Reads of the outbox (the `<scope>#EVENT` partition, time-ordered event ids, 30-day TTL). Only
 * this capability reads it; it grows with every change, so it is only ever read a page at a time.
 */

/** Most DynamoDB pages read for one answer when a type filter skips most events. */
const MAX_ROUNDS = 10;

export async function getEvent(store: Store, scope: Scope, eventId: string, nowSeconds: number): Promise<DomainEvent | undefined> {
  const item = await store.get<Record<string, unknown>>(keys.outbox(scope, eventId));
  if (!item || typeof item[TABLE.ttlAttribute] !== 'number' || (item[TABLE.ttlAttribute] as number) <= nowSeconds) return undefined;
  return eventFromItem(item);
}

/**
 * Newest first, `limit` at most. With a type filter DynamoDB counts the events it skipped against
 * its page limit, so this reads rounds of the remaining count until the page is full, the
 * partition ends, or MAX_ROUNDS (then the page may be short, with a cursor to go on).
 */
export async function listEvents(store: Store, scope: Scope, options: { type?: string; limit: number; cursor?: string; nowSeconds: number }): Promise<{ events: DomainEvent[]; cursor?: string }> {
  const events: DomainEvent[] = [];
  let cursor = options.cursor;
  const values: Record<string, unknown> = { ':now': options.nowSeconds, ':entity': OUTBOX_ENTITY };
  let expression = '#ttl > :now AND #entity = :entity';
  if (options.type) {
    expression += ' AND eventType = :type';
    values[':type'] = options.type;
  }
  for (let round = 0; round < MAX_ROUNDS && events.length < options.limit; round++) {
    const page = await store.query<Record<string, unknown>>({
      pk: keys.outboxPartition(scope),
      limit: options.limit - events.length,
      cursor,
      filter: { expression, names: { '#ttl': TABLE.ttlAttribute, '#entity': 'entity' }, values },
    });
    for (const item of page.items) {
      const event = eventFromItem(item);
      if (event) events.push(event);
    }
    cursor = page.cursor;
    if (!cursor) break;
  }
  return { events, cursor };
}
