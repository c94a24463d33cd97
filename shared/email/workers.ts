import type { WatchState } from '../platform/watchdog';
import * as z from '../platform/zod';
import type { BusConsumer, ControlRoute, ExternalEventConsumer, JobHandler } from '../platform/capability';
import { badRequest } from '../platform/errors';
import type { Scope } from '../store/keys';
import { feedbackFromSesEvent, kickOffSend, POST_SENDING_EVENT, recordFeedback, runScheduledSend, watchSend } from './service';

export const scopeSchema = z.object({ accountId: z.string(), mode: z.enum(['live', 'test']) });

/** The committed start of a send queues its first batch and arms the watchdog. */
export const postSendingConsumer: BusConsumer = {
  name: 'email-post-sending',
  eventTypes: [POST_SENDING_EVENT],
  needs: ['table', 'queue', 'scheduler'],
  handle: async (event, deps) => {
    const data = event.data as { postId: string; batch?: number };
    await kickOffSend(deps, { accountId: event.accountId, mode: event.mode }, data.postId, data.batch ?? 0);
  },
};

export const jobScope = (scope: Scope | undefined): Scope => scopeSchema.parse(scope);

export const emailJobs: Record<string, JobHandler> = {
  'email.post-send': (job, deps) => runScheduledSend(deps, jobScope(job.scope), String(job.payload.postId)),
  'email.post-watchdog': (job, deps) => watchSend(deps, jobScope(job.scope), String(job.payload.postId), job.payload.watch as Partial<WatchState> | undefined),
};

/** Detail types SES gives configuration-set events on the default bus (source `aws.ses`). */
export const SES_FEEDBACK_DETAIL_TYPES = ['Email Bounced', 'Email Complaint Received'];

/**
 * SES configuration-set events from the account's default event bus: permanent bounces and
 * complaints suppress the address in the account and mode named by the message tags the mail
 * carried. Suppressing twice changes nothing, so a redelivered event is harmless.
 */
export const sesFeedbackConsumer: ExternalEventConsumer = {
  name: 'email-ses-feedback',
  source: 'aws.ses',
  detailTypes: SES_FEEDBACK_DETAIL_TYPES,
  needs: ['table'],
  handle: async (event, deps) => {
    const feedback = feedbackFromSesEvent(event.detail);
    if (!feedback) return;
    for (const email of feedback.emails) await recordFeedback(deps, feedback.scope, email, feedback.type);
  },
};

const feedbackBody = z.object({
  email: z.string().check(z.email()),
  type: z.enum(['bounce', 'complaint']),
  accountId: z.optional(z.string()),
  mode: z.optional(z.enum(['live', 'test'])),
});

interface CapturedLike {
  to: string;
  tags?: Record<string, string>;
}

/**
 * Local stand-in for the provider's report: `{ email, type }`. Like SES, it finds the account and
 * mode from the tags of the mail sent to that address (the latest one), unless given explicitly.
 */
export const emailEventsRoute: ControlRoute = {
  method: 'POST',
  path: '/_local/emails/events',
  async handle(runtime, { body }) {
    const parsed = feedbackBody.safeParse(body);
    if (!parsed.success) throw badRequest(`body: ${parsed.error.issues[0]!.path.join('.')} ${parsed.error.issues[0]!.message}`);
    const input = parsed.data;
    const scopes: Scope[] = [];
    if (input.accountId && input.mode) scopes.push({ accountId: input.accountId, mode: input.mode });
    else {
      const captured = runtime.deps.ports.email as unknown as { list?: (to?: string) => Promise<CapturedLike[]> };
      const mails = (await captured.list?.(input.email)) ?? [];
      const seen = new Set<string>();
      for (const mail of [...mails].reverse()) {
        const { accountId, mode } = mail.tags ?? {};
        if (!accountId || (mode !== 'live' && mode !== 'test') || seen.has(`${accountId}:${mode}`)) continue;
        seen.add(`${accountId}:${mode}`);
        scopes.push({ accountId, mode });
        break; // the provider reports the message that bounced: the latest one
      }
    }
    if (!scopes.length) throw badRequest(`No mail was sent to ${input.email}; give accountId and mode`);
    for (const scope of scopes) await recordFeedback(runtime.deps, scope, input.email, input.type);
    return { status: 200, body: { suppressed: input.email.toLowerCase(), type: input.type, scopes } };
  },
};

/** Local only: the captured-mail adapter refuses mail to these addresses until told otherwise. */
export const refuseMailRoute: ControlRoute = {
  method: 'POST',
  path: '/_local/emails/refuse',
  async handle(runtime, { body }) {
    const parsed = z.object({ emails: z.array(z.string().check(z.email())), refuse: z._default(z.boolean(), true) }).safeParse(body);
    if (!parsed.success) throw badRequest('body: { emails: string[], refuse?: boolean }');
    const captured = runtime.deps.ports.email as unknown as { failFor?: Set<string> };
    if (!captured.failFor) throw badRequest('The email adapter cannot refuse mail');
    for (const email of parsed.data.emails) {
      if (parsed.data.refuse) captured.failFor.add(email.toLowerCase());
      else captured.failFor.delete(email.toLowerCase());
    }
    return { status: 200, body: { refusing: [...captured.failFor] } };
  },
};
