import { defineCapability } from '../platform/capability';
import { emailOperations } from './operations';
import { MAIL_QUEUED_EVENT } from './outbox';
import { EMAIL_QUEUE, POST_SENDING_EVENT } from './service';
import { mailJobs, queuedMailConsumer, sendBatchHandler } from './senders';
import { emailEventsRoute, emailJobs, refuseMailRoute, postSendingConsumer, sesFeedbackConsumer } from './workers';

/** Sender settings, transactional send, newsletter posts sent in batches, links, bounces. */
export const email = defineCapability({
  name: 'email',
  build: {
    manifest: { url: import.meta.url, export: 'email' },
    operations: './operations#emailOperations',
    workers: {
      'email-post-sending': './workers#postSendingConsumer',
      'email-transactional': './senders#queuedMailConsumer',
      'email-ses-feedback': './workers#sesFeedbackConsumer',
    },
    jobNeeds: ['table', 'queue', 'scheduler', 'encryption', 'email', 'render'],
  },
  operations: emailOperations,
  needs: ['table', 'queue', 'scheduler', 'email', 'encryption', 'render'],
  // queuedMailConsumer renders and delivers the transactional mail other capabilities queue (outbox.ts).
  consumers: [postSendingConsumer, queuedMailConsumer],
  // SES publishes bounces and complaints on the default bus (a rule there in AWS).
  externalConsumers: [sesFeedbackConsumer],
  queues: [
    {
      name: EMAIL_QUEUE,
      handle: sendBatchHandler,
      needs: ['table', 'queue', 'scheduler', 'email', 'encryption', 'render'],
      // One batch: a page of 50 contacts, their markers and one bulk call.
      timeoutSeconds: 60,
      batchSize: 5,
    },
  ],
  jobs: { ...emailJobs, ...mailJobs },
  controlRoutes: [emailEventsRoute, refuseMailRoute],
  eventTypes: [POST_SENDING_EVENT, MAIL_QUEUED_EVENT],
});
