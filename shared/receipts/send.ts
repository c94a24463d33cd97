import { createHash } from 'node:crypto';
import { prepareTransactional } from '../email/outbox';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { createUnique } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { MailBody } from './mails';
import { claimMarkerKey } from './repository';
import { guardedBeforeLayout, processedBeforeUpgrade } from '../platform/markers';

/** Reading event data and queueing one mail per event: shared by the receipt, refund and sale-notice consumers. */

export const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
export const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
/** The product and, with an upsell taken, the upsell product: each one's files are the buyer's. */
export const boughtIds = (productId: string, lines: unknown) => [
  ...new Set([productId, ...(Array.isArray(lines) ? lines.map((l) => str(obj(l).productId)).filter((id): id is string => !!id) : [])]),
];

export const baseOf = (deps: Deps, fallback: string | null) => {
  if (deps.config.PUBLIC_BASE_URL) return deps.config.PUBLIC_BASE_URL.replace(/\/$/, '');
  try {
    return fallback ? new URL(fallback).origin : '';
  } catch {
    return '';
  }
};

/** The layout in which an event's mail id is its once-guard (no claim marker): markers.ts `guardedBeforeLayout`. */
const MAIL_ID_GUARD = 'receipt-mail-ids-v1';

/**
 * The id of the one mail a consumer queues for an event: the event's time (an object id's first 8
 * hex digits, so ids stay time-ordered) and 16 hex digits of a hash of the consumer and the event.
 * Every delivery of the event computes the same id.
 */
export function mailIdFor(consumer: string, eventId: string): string {
  const time = /^[0-9a-f]{8}/.test(eventId) ? eventId.slice(0, 8) : '00000000';
  return time + createHash('sha256').update(`${consumer}\u0000${eventId}`).digest('hex').slice(0, 16);
}

/**
 * Queues one mail for one event, at most once: the mail's id comes from the consumer and the
 * event, and it is put only if no item has that id, so a redelivered event queues nothing. One
 * plain write, where a claim marker and the mail in a transaction cost four times the units
 * (docs/performance.md, partition heat). An event from before that change may have been claimed
 * by the release before (a marker, another mail id): that claim is looked up for such events only.
 * The email capability's worker renders and delivers it (retrying provider faults), so this
 * function does not bundle the renderer.
 */
export async function sendOnce(
  deps: Deps,
  consumer: string,
  event: DomainEvent,
  scope: Scope,
  to: string,
  mail: MailBody,
  baseUrl: string,
  source: 'receipt' | 'seller' = 'receipt',
) {
  if (await processedBeforeUpgrade(deps, consumer, event.id, event.created)) return;
  if (await guardedBeforeLayout(deps, MAIL_ID_GUARD, claimMarkerKey(consumer, event.id), event.created)) return;
  const queued = await prepareTransactional(deps, scope, {
    id: mailIdFor(consumer, event.id),
    to: [to],
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    preview: mail.preview,
    locale: mail.locale ?? null,
    source,
    baseUrl,
  });
  for (const op of queued.ops) if ('put' in op) await createUnique(deps.store, op.put);
}
