import { brotliCompressSync, brotliDecompressSync, constants as zlib } from 'node:zlib';
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
 * How an event's JSON text is stored. Up to `PLAIN_EVENT_BYTES` as it is (`event`, a string); a
 * larger one (an `order.completed` with its customer, product and tax blocks) brotli-compressed in
 * `eventZ`, so that its item stays within the one KiB a write is billed by (two units instead of
 * four in the change's transaction). The erasure finds the events naming a buyer by searching the
 * stored text in DynamoDB, which it cannot do in compressed bytes: such an item keeps every
 * e-mail address its text names apart, as plain text (`mentions`), which the search reads instead.
 */
export const PLAIN_EVENT_BYTES = 700;
export const COMPRESSED_EVENT = 'eventZ';
export const EVENT_MENTIONS = 'mentions';
const BROTLI = { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 11 } };
// A maximal run of characters that cannot delimit an address, holding an `@`: any address the
// text holds lies inside one such run, so a search of the runs finds what a search of the text did.
const ADDRESS_RUNS = /[^\s"<>,;:()[\]\\]*@[^\s"<>,;:()[\]\\]*/g;

/** The addresses an event's text names, each once, space-separated and space-ended ('' when none). */
export const mentionsOf = (text: string): string => {
  const runs = [...new Set(text.match(ADDRESS_RUNS) ?? [])];
  return runs.length ? ` ${runs.join(' ')} ` : '';
};

/** The attributes that hold an event's text (and its addresses, when compressed). */
export function storedEventText(text: string): Record<string, unknown> {
  if (Buffer.byteLength(text) <= PLAIN_EVENT_BYTES) return { event: text };
  return { [COMPRESSED_EVENT]: brotliCompressSync(text, BROTLI), [EVENT_MENTIONS]: mentionsOf(text) };
}

/** An event's text from its stored attributes (a query, a get or a stream image: bytes or base64). */
export function eventText(item: Record<string, unknown>): string | undefined {
  if (typeof item.event === 'string') return item.event;
  const packed = item[COMPRESSED_EVENT];
  if (packed instanceof Uint8Array) return brotliDecompressSync(packed).toString('utf8');
  if (typeof packed === 'string') return brotliDecompressSync(Buffer.from(packed, 'base64')).toString('utf8');
  return undefined;
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
      { eventType: event.type, ...storedEventText(JSON.stringify(event)) },
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
  record.eventName === 'INSERT' &&
  (typeof (record.newImage?.event as { S?: unknown } | undefined)?.S === 'string' ||
    (record.newImage?.[COMPRESSED_EVENT] as { B?: unknown } | undefined)?.B !== undefined);

/** Reads an outbox item (or an entity item carrying its event) back from a stream image or a query. */
export function eventFromItem(item: Record<string, unknown>): DomainEvent | undefined {
  if (item.entity !== OUTBOX_ENTITY && item[CARRIES_EVENT] !== true) return undefined;
  let value: unknown;
  try {
    const text = eventText(item);
    if (text === undefined) return undefined;
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  // The schema checks the envelope; the parsed object itself is returned so key order survives.
  return domainEventSchema.safeParse(value).success ? (value as DomainEvent) : undefined;
}
