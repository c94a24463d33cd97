import type { QueueDeclaration } from '../platform/capability';
import type { Deps } from '../platform/context';
import { logger } from '../platform/logger';
import { countPlatformMailRefused } from '../platform/observability';
import type { EmailMessage } from '../platform/ports';
import * as z from '../platform/zod';

/** The queue a refused platform mail is retried on (a dead-letter queue with an alarm in AWS). */
export const PLATFORM_MAIL_QUEUE = 'platform-mail';

/** Which of the platform's own mails it is (logged and counted with it; never the recipient or a link). */
export type PlatformMailKind = 'sign-in' | 'invite' | 'credit-paused';

/** Time before the first retry; SQS (or the local queue) then retries on its visibility timeout. */
export const RETRY_DELAY_SECONDS = 5;

/** A refused send, seen: logged with the provider's reason and counted (PlatformMailRefused, alarmed). */
export function reportRefusal(kind: PlatformMailKind, error: unknown, retry: boolean): void {
  // Providers name the address in some refusals; the log keeps the reason, not who it was for.
  const reason = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).replace(/[^\s<>"',;:]+@[^\s<>"',;:]+/g, '<address>');
  logger.error('platform mail refused', { kind, retry, reason });
  countPlatformMailRefused();
}

/**
 * Sends one of the platform's own mails (sign-in link, team invite, a buyer's account notice) from
 * the platform sender. A send the provider refuses is logged with its reason, counted, and handed
 * to the retry queue, whose last failure dead-letters it: never swallowed. Answers whether it went
 * out now, so the caller can answer as before (the sign-in route says 202 either way: it must not
 * tell who has a store).
 */
export async function sendPlatformMail(deps: Deps, kind: PlatformMailKind, message: EmailMessage): Promise<boolean> {
  try {
    await deps.ports.email.send(message);
    return true;
  } catch (error) {
    reportRefusal(kind, error, false);
  }
  try {
    await deps.ports.queue.send(PLATFORM_MAIL_QUEUE, { kind, message }, { delaySeconds: RETRY_DELAY_SECONDS });
  } catch (error) {
    // The retry could not even be queued: the mail is lost, and said so loudly (counted again).
    logger.error('platform mail lost: the retry could not be queued', { kind, reason: (error as Error).message });
    countPlatformMailRefused();
  }
  return false;
}

const retryMessage = z.object({
  kind: z.enum(['sign-in', 'invite', 'credit-paused']),
  message: z.object({
    to: z.array(z.string()).check(z.minLength(1)),
    subject: z.string(),
    html: z.string(),
    text: z.string(),
    from: z.optional(z.string()),
    fromName: z.optional(z.string()),
    replyTo: z.optional(z.string()),
    headers: z.optional(z.record(z.string(), z.string())),
    tags: z.optional(z.record(z.string(), z.string())),
  }),
});

/** The retry queue's worker: a refusal is reported and thrown, so the queue retries, then dead-letters. */
export const platformMailQueue: QueueDeclaration = {
  name: PLATFORM_MAIL_QUEUE,
  needs: ['email'],
  handle: async (raw, deps) => {
    const { kind, message } = retryMessage.parse(raw);
    try {
      await deps.ports.email.send(message);
    } catch (error) {
      reportRefusal(kind, error, true);
      throw error;
    }
  },
};
