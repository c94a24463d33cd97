import * as z from '../platform/zod';
import type { BusConsumer, JobHandler, QueueHandler } from '../platform/capability';
import { logger } from '../platform/logger';
import { deliverQueuedMail, MAIL_TAKEOVER_JOB, processSendBatch } from './delivery';
import { MAIL_QUEUED_EVENT } from './outbox';
import { jobScope, scopeSchema } from './workers';

// The workers that render (through the render port) and deliver, apart from workers.ts so that the
// functions of the other email consumers (post sending, SES feedback) carry none of the delivery
// path (SES, KMS, the render port's Lambda client).

const batchMessage = z.object({ scope: scopeSchema, postId: z.string(), batch: z.number().check(z.int(), z.nonnegative()) });

/**
 * Transactional mail other capabilities queued (outbox.ts): rendered and delivered here, at most
 * once per mail id; a provider fault throws, so the bus retries with back-off.
 */
export const queuedMailConsumer: BusConsumer = {
  name: 'email-transactional',
  eventTypes: [MAIL_QUEUED_EVENT],
  needs: ['table', 'email', 'encryption', 'scheduler', 'render'],
  handle: async (event, deps) => {
    const mailId = (event.data as { mailId?: unknown }).mailId;
    if (typeof mailId !== 'string') return;
    await deliverQueuedMail(deps, { accountId: event.accountId, mode: event.mode }, mailId);
  },
};

/** The timer a delivery sets when it finds its mail held: looks again once the holder's lease is over. */
export const mailJobs: Record<string, JobHandler> = {
  [MAIL_TAKEOVER_JOB]: (job, deps) => deliverQueuedMail(deps, jobScope(job.scope), String(job.payload.mailId)),
};

export const sendBatchHandler: QueueHandler = async (message, deps) => {
  const parsed = batchMessage.safeParse(message);
  if (!parsed.success) {
    logger.error('malformed email batch message dropped', { message: JSON.stringify(message).slice(0, 500) });
    return;
  }
  await processSendBatch(deps, parsed.data.scope, parsed.data.postId, parsed.data.batch);
};
