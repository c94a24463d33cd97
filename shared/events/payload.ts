import type { DomainEvent } from '../platform/events';

/** Envelope names a data field may not take over. */
const ENVELOPE = new Set(['id', 'type', 'created', 'webhookId', 'test']);

/**
 * An event as the events API shows it: the body a webhook delivery carries (`id`, `type`,
 * `created`, then the event fields in their own order), without the endpoint's `webhookId`.
 */
export type EventPayload = { id: string; type: string; created: number } & Record<string, unknown>;

export function eventPayload(event: Pick<DomainEvent, 'id' | 'type' | 'created' | 'data'>): EventPayload {
  const body: EventPayload = { id: event.id, type: event.type, created: event.created };
  for (const [name, value] of Object.entries(event.data)) if (!ENVELOPE.has(name)) body[name] = value;
  return body;
}
