import type { WatchState } from '../platform/watchdog';
import * as z from '../platform/zod';
import type { BusConsumer, JobHandler, QueueDeclaration } from '../platform/capability';
import { logger } from '../platform/logger';
import { kickOffNotify, NOTIFY_EVENT, type NOTIFY_QUEUE, NOTIFY_WATCHDOG_JOB, processNotifyBatch, watchNotify } from './posts/notify';

const scopeSchema = z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) });
const batchMessage = z.object({ scope: scopeSchema, membershipId: z.string(), postId: z.string(), batch: z.number().check(z.int(), z.minimum(0)) });

/** The committed `pending` notification starts its first batch (idempotent: batches are claimed by number). */
export const postNotifyConsumer: BusConsumer = {
  name: 'memberships-post-notify',
  needs: ['table', 'queue', 'scheduler'],
  eventTypes: [NOTIFY_EVENT],
  handle: (event, deps) => kickOffNotify(deps, { accountId: event.accountId, mode: event.mode }, String(event.data.membershipId), String(event.data.postId)),
};

/** The notification's batches, one queue message each (its own module: no post writes, no sanitiser). */
export const notifyQueue: QueueDeclaration = {
  name: 'membership-post-notify' satisfies typeof NOTIFY_QUEUE,
  handle: async (message, deps) => {
    const parsed = batchMessage.safeParse(message);
    if (!parsed.success) {
      logger.error('malformed membership notify message dropped', { message: JSON.stringify(message).slice(0, 500) });
      return;
    }
    const { scope, membershipId, postId, batch } = parsed.data;
    await processNotifyBatch(deps, scope, membershipId, postId, batch);
  },
  // Mails are queued for the email capability's worker (shared/email/outbox.ts).
  needs: ['table', 'queue', 'scheduler'],
  timeoutSeconds: 60,
  batchSize: 5,
};

export const membershipJobs: Record<string, JobHandler> = {
  [NOTIFY_WATCHDOG_JOB]: async (job, deps) => {
    const scope = scopeSchema.safeParse(job.scope);
    if (!scope.success) return;
    await watchNotify(deps, scope.data, String(job.payload.membershipId), String(job.payload.postId), job.payload.watch as Partial<WatchState> | undefined);
  },
};
