import { blockedRecipients } from '../audience/suppression';
import { isValidEmail, normalizeEmail } from '../audience/rules';
import type { Deps } from '../platform/context';
import { badRequest } from '../platform/errors';
import { carriedEvent, newEvent } from '../platform/events';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import type { MailSource, QueuedMailRecord } from './records';
import { queuedMailPut } from './repository';

/**
 * The light way for other capabilities to send a transactional mail: checked here, recorded in
 * one write (or in the caller's own transaction), rendered and delivered by the email
 * capability's worker (`email-transactional`, shared/email/delivery.ts). Nothing here imports the
 * renderer (sanitize-html, juice, html-to-text), so the caller's function does not bundle it.
 */

/** The event a queued mail carries; the email worker consumes it (internal, never a webhook). */
export const MAIL_QUEUED_EVENT = 'email.transactional.queued';
export const MAX_RECIPIENTS = 100;

export interface TransactionalContent {
  subject: string;
  html?: string | null;
  text?: string | null;
  preview?: string | null;
  /** The language the mail is written in (a buyer's): the footer the mail gets is written in it too. */
  locale?: string | null;
}

export interface TransactionalMessage extends TransactionalContent {
  to: string[];
  fromName?: string | null;
  replyTo?: string | null;
  source?: MailSource;
  /** Base address for the links in the mail when PUBLIC_BASE_URL is not configured. */
  baseUrl?: string;
  /** false: links stay as written and no open pixel (mails that carry a capability link). */
  track?: boolean;
  /**
   * true: at most once per recipient (a member post's notification). A delivery a crash cut
   * between the claim and its outcome is not repeated: the mail becomes `failed` (interrupted)
   * rather than risk a second copy. Otherwise such a delivery is taken over and sent again.
   */
  once?: boolean;
  /**
   * The mail's id, when the caller derives it from the work that sends it (receipts: the event and
   * the consumer): the queued mail's put, conditional on the id being new, is then the guard that
   * sends it once, with no marker of its own. By default a new id.
   */
  id?: string;
}

/** The rules of a transactional send (1 to 100 valid recipients, a subject, html or text); answers the recipients lower-cased and de-duplicated. */
export function checkTransactional(message: TransactionalMessage): string[] {
  const recipients = [...new Set(message.to.map(normalizeEmail))];
  const invalid = recipients.find((r) => !isValidEmail(r));
  if (invalid) throw badRequest(`Invalid recipient: ${invalid}`, { field: 'to' });
  if (recipients.length === 0) throw badRequest('At least one recipient is required', { field: 'to' });
  if (recipients.length > MAX_RECIPIENTS) throw badRequest(`At most ${MAX_RECIPIENTS} recipients per request (got ${recipients.length})`, { field: 'to' });
  if (!message.subject?.trim()) throw badRequest('subject is required', { field: 'subject' });
  if (!message.html && !message.text) throw badRequest('Either html or text is required', { field: 'html' });
  return recipients;
}

export interface QueuedTransactional {
  /** The id of the sent-mail record once delivered (never a newsletter post); null when nobody could be mailed. */
  id: string | null;
  /** The recipients the mail is queued for: suppressed and unsubscribed addresses are left out. */
  accepted: string[];
  /** The write that queues it (empty when nobody could be mailed), for the caller's own transaction. */
  ops: TransactOp[];
}

/** What a mail says and whom it comes from, as a queued mail and the sent post record it. */
export const mailContent = (message: TransactionalMessage) => ({
  subject: message.subject,
  html: message.html ?? null,
  text: message.text ?? null,
  preview: message.preview ?? null,
  fromName: message.fromName ?? null,
  replyTo: message.replyTo ?? null,
  source: message.source ?? 'api',
  ...(message.locale ? { locale: message.locale } : {}),
});

/**
 * Checks a message and prepares its queueing write, for a caller that commits it with its own
 * state change (one transaction: the mail is queued exactly when the change commits). Throws the
 * same 400s as the synchronous send; the sender is checked when the worker delivers.
 */
export async function prepareTransactional(deps: Deps, scope: Scope, message: TransactionalMessage): Promise<QueuedTransactional> {
  const recipients = checkTransactional(message);
  const blocked = await blockedRecipients(deps, scope, recipients);
  const accepted = recipients.filter((r) => !blocked.has(r));
  if (!accepted.length) return { id: null, accepted, ops: [] };
  const event = newEvent(scope, deps.clock, MAIL_QUEUED_EVENT, {});
  if (message.id) event.id = message.id;
  event.data = { mailId: event.id };
  const now = deps.clock.now().toISOString();
  const mail: QueuedMailRecord = {
    _id: event.id,
    to: accepted,
    ...mailContent(message),
    baseUrl: message.baseUrl ?? null,
    track: message.track !== false,
    once: message.once === true,
    status: 'queued',
    failureReason: null,
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  };
  return { id: mail._id, accepted, ops: [queuedMailPut(scope, mail, carriedEvent(event), event.created)] };
}

/** Queues a mail on its own (one write); answers its id and the recipients it is queued for. */
export async function queueTransactional(deps: Deps, scope: Scope, message: TransactionalMessage): Promise<Omit<QueuedTransactional, 'ops'>> {
  const { ops, ...queued } = await prepareTransactional(deps, scope, message);
  if (ops.length) await deps.store.transact(ops);
  return queued;
}
