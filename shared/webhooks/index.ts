import { defineCapability } from '../platform/capability';
import { webhookOperations } from './operations';
import { webhooksPrivacy } from './privacy';
import { webhookFanoutConsumer, webhookQueueHandler } from './workers';

/** Signed webhook endpoints, the fan-out of committed events, and delivery with retries. */
export const webhooks = defineCapability({
  name: 'webhooks',
  build: {
    manifest: { url: import.meta.url, export: 'webhooks' },
    operations: './operations#webhookOperations',
    privacy: './privacy#webhooksPrivacy',
    workers: { 'webhook-fanout': './workers#webhookFanoutConsumer' },
  },
  operations: webhookOperations,
  privacy: webhooksPrivacy,
  needs: ['table', 'queue', 'encryption'],
  consumers: [webhookFanoutConsumer],
  queues: [
    {
      name: 'webhooks',
      handle: webhookQueueHandler,
      needs: ['table', 'queue', 'encryption'],
      // An attempt may wait up to 5 s on its receiver; a batch runs its messages at once.
      timeoutSeconds: 40,
      batchSize: 10,
      cdkIds: { queue: 'WebhookDeliveries', worker: 'WebhookDelivery' },
    },
  ],
});
