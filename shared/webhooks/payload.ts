import type { DomainEvent } from '../platform/events';

/** Envelope names a data field may not take over: the envelope always wins. */
const ENVELOPE = new Set(['id', 'type', 'created', 'webhookId', 'test']);

/**
 * The delivery body, built once per delivery: `id`, `type`, `created`, the event fields in their
 * own order, `webhookId`, then `test: true` on test deliveries. The returned text is stored and
 * is exactly what every attempt signs and sends.
 */
export function buildDeliveryBody(event: Pick<DomainEvent, 'id' | 'type' | 'created' | 'data'>, webhookId: string, options: { test?: boolean } = {}): string {
  const body: Record<string, unknown> = { id: event.id, type: event.type, created: event.created };
  for (const [name, value] of Object.entries(event.data)) if (!ENVELOPE.has(name)) body[name] = value;
  body.webhookId = webhookId;
  if (options.test) body.test = true;
  return JSON.stringify(body);
}
