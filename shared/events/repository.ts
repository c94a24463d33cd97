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
export async function listEvents(
  store: Store,
  scope: Scope,
  options: { type?: string; limit: number; cursor?: string; nowSeconds: number },
): Promise<{ events: DomainEvent[]; cursor?: string }> {
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

/**
 * One page of the outbox's events whose text mentions `needle` (an erased buyer's address), oldest
 * first: the filter runs in DynamoDB, so only those travel. A page reads the whole 30 days of an
 * account in the end: only the erasure worker calls it.
 */
export async function eventsMentioningPage(store: Store, scope: Scope, needle: string, cursor: string | undefined) {
  const page = await store.query<Record<string, unknown>>({
    pk: keys.outboxPartition(scope),
    ascending: true,
    cursor,
    filter: {
      expression: '#entity = :entity AND contains(#event, :needle)',
      names: { '#entity': 'entity', '#event': 'event' },
      values: { ':entity': OUTBOX_ENTITY, ':needle': needle },
    },
  });
  return { items: page.items.map((item) => ({ id: String(item.SK), text: String(item.event) })), cursor: page.cursor };
}

/**
 * An event's stored text rewritten (an erasure). The stream sees a MODIFY, which the dispatcher
 * ignores: nothing is sent again.
 */
export const rewriteEvent = (store: Store, scope: Scope, eventId: string, text: string) =>
  store.update(keys.outbox(scope, eventId), { set: { event: text } }, { mustExist: true });
