import * as z from 'zod';

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const webhookWithSecretSchema = webhookSchema.extend({
  secret: z.string().describe('48-character hex signing secret; shown only in this answer'),
});

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

export const idParams = z.object({ id: z.string().min(1).max(64, 'id is at most 64 characters') });

const eventsField = z.array(z.string().min(1)).min(1, 'at least one event type is required').max(100);

export const createWebhookBody = z.object({
  url: z.string().min(1),
  events: eventsField,
  description: z.string().max(500).optional(),
  active: z.boolean().optional(),
});

export const updateWebhookBody = z
  .object({
    url: z.string().min(1).optional(),
    events: eventsField.optional(),
    description: z.string().max(500).nullable().optional(),
    active: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((v) => v !== undefined), { message: 'nothing to change: give url, events, description or active' });

export const testWebhookBody = z
  .object({ type: z.string().min(1).optional().describe('Event type of the test delivery; defaults to one the endpoint subscribes to') })
  .optional();

export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });

export const deliveryAcceptedSchema = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  type: z.string(),
  test: z.boolean(),
});

export const attemptSchema = z.object({
  id: z.string(),
  deliveryId: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  attempt: z.number().int(),
  status: z.enum(['success', 'failed']),
  statusCode: z.number().int().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  url: z.string(),
  finalUrl: z.string(),
  redirects: z.number().int(),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseBodyExcerpt: z.string().nullable(),
  willRetry: z.boolean(),
  nextAttemptAt: z.string().nullable(),
  test: z.boolean(),
  redelivery: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const deliveredQuery = z.object({
  // Ids and types are short; a longer value can name nothing, and the event filter puts it in a key.
  webhookId: z.string().min(1).max(100).optional(),
  eventId: z.string().min(1).max(100).optional(),
  eventType: z.string().min(1).max(100).optional(),
  status: z.enum(['success', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().regex(/^[0-9a-f]{24}$/, 'after must be the id of a delivery log entry').optional(),
});

export const deliveredListSchema = z.object({
  deliveries: z.array(attemptSchema),
  hasMore: z.boolean(),
  next: z.string().nullable().describe('Pass as `after` to read the next page'),
});
