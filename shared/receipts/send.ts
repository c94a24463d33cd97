import { prepareTransactional } from '../email/outbox';
import type { Deps } from '../platform/context';
import type { DomainEvent } from '../platform/events';
import { isConditionFailed } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { MailBody } from './mails';
import { claimMailOp } from './repository';
import { processedBeforeUpgrade } from '../platform/markers';

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

/**
 * Queues one mail for one event, at most once: the claim and the queued mail are one transaction,
 * so a redelivered event queues nothing. The email capability's worker renders and delivers it
 * (retrying provider faults), so this function does not bundle the renderer.
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
  const queued = await prepareTransactional(deps, scope, {
    to: [to],
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    preview: mail.preview,
    locale: mail.locale ?? null,
    source,
    baseUrl,
  });
  try {
    await deps.store.transact([claimMailOp(consumer, event.id, event.created), ...queued.ops]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
