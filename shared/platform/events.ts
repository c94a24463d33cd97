import * as z from './zod';
import type { Clock } from './clock';
import { objectId } from './ids';
import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { putNew } from '../store/conditional';
import type { TransactOp } from '../store/store';

/**
 * A domain event. It lives in the outbox (a table item written in the same transaction as the
 * change it reports), reaches the bus through the stream, and is what webhooks deliver.
 */
export interface DomainEvent {
  id: string;
  type: string;
  accountId: string;
  mode: Scope['mode'];
  /** Unix seconds. */
  created: number;
  /** The event fields, in the order they appear in a delivery body. */
  data: Record<string, unknown>;
  /**
   * Notes for this deployment's own consumers, never delivered to a webhook nor shown by the
   * events API (both build their bodies from `data`): what the change knew that the public fields
   * do not say, so that one consumer can do in one write what a second internal event would make
   * two consumers race for (a checkout's newsletter consent on its `order.completed`).
   */
  internal?: Record<string, unknown>;
}

export const domainEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  accountId: z.string(),
  mode: z.enum(['live', 'test']),
  created: z.number(),
  data: z.record(z.string(), z.unknown()),
  internal: z.optional(z.record(z.string(), z.unknown())),
});

export const OUTBOX_ENTITY = 'OutboxEvent';
const OUTBOX_RETENTION_SECONDS = 30 * 24 * 3600;

export function newEvent(scope: Scope, clock: Clock, type: string, data: Record<string, unknown>): DomainEvent {
  return { id: objectId(clock), type, accountId: scope.accountId, mode: scope.mode, created: Math.floor(clock.nowMs() / 1000), data };
}

/**
 * The outbox write that goes in the same transaction as the state change. The event is stored as
 * JSON text, not a DynamoDB map: maps do not keep key order, and deliveries must list the fields
 * in the order the spec gives them.
 */
export function outboxPut(event: DomainEvent): TransactOp {
  const scope = { accountId: event.accountId, mode: event.mode };
  return putNew(
    toItem(
      keys.outbox(scope, event.id),
      OUTBOX_ENTITY,
      { eventType: event.type, event: JSON.stringify(event) },
      { expiresAt: event.created + OUTBOX_RETENTION_SECONDS },
    ),
  );
}

/**
 * An entity item that is its own outbox record: the attribute that marks it, and the attributes to
 * spread into the item. For a high-volume insert whose only write is the item itself (a usage
 * report), so the insert is one PutItem instead of a transaction of two items: the stream
 * dispatches the insert's event exactly as it dispatches an outbox item. The item keeps its own
 * key and entity; only inserts dispatch (a later update of the item emits nothing).
 */
export const CARRIES_EVENT = 'carriesEvent';
export function carriedEvent(event: DomainEvent): Record<string, unknown> {
  return { [CARRIES_EVENT]: true, event: JSON.stringify(event) };
}

/**
 * Whether a stream record, still in DynamoDB's wire form, can hold an event for `eventFromItem`: an
 * insert of an item with a string `event`. Lets a stream reader skip decoding the rest (most of
 * a busy table's records: claims, log entries, updates).
 */
export const mayCarryEvent = (record: { eventName?: string; newImage?: Record<string, unknown> }): boolean =>
  record.eventName === 'INSERT' && typeof (record.newImage?.event as { S?: unknown } | undefined)?.S === 'string';

/** Reads an outbox item (or an entity item carrying its event) back from a stream image or a query. */
export function eventFromItem(item: Record<string, unknown>): DomainEvent | undefined {
  if ((item.entity !== OUTBOX_ENTITY && item[CARRIES_EVENT] !== true) || typeof item.event !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(item.event);
  } catch {
    return undefined;
  }
  // The schema checks the envelope; the parsed object itself is returned so key order survives.
  return domainEventSchema.safeParse(value).success ? (value as DomainEvent) : undefined;
}
