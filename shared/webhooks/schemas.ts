import * as z from '../platform/zod';

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.nullable(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const webhookWithSecretSchema = z.extend(webhookSchema, {
  secret: z.string().check(z.describe('48-character hex signing secret; shown only in this answer')),
});

export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64, 'id is at most 64 characters')) });

const eventsField = z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'at least one event type is required'), z.maxLength(100));

export const createWebhookBody = z.object({
  url: z.string().check(z.minLength(1)),
  events: eventsField,
  description: z.optional(z.string().check(z.maxLength(500))),
  active: z.optional(z.boolean()),
});

export const updateWebhookBody = z
  .object({
    url: z.optional(z.string().check(z.minLength(1))),
    events: z.optional(eventsField),
    description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
    active: z.optional(z.boolean()),
  })
  .check(z.refine((body) => Object.values(body).some((v) => v !== undefined), { message: 'nothing to change: give url, events, description or active' }));

export const testWebhookBody = z.optional(
  z.object({
    type: z.optional(z.string().check(z.minLength(1))).check(z.describe('Event type of the test delivery; defaults to one the endpoint subscribes to')),
  }),
);

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
  attempt: z.number().check(z.int()),
  status: z.enum(['success', 'failed']),
  statusCode: z.nullable(z.number().check(z.int())),
  durationMs: z.number(),
  error: z.nullable(z.string()),
  url: z.string(),
  finalUrl: z.string(),
  redirects: z.number().check(z.int()),
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseBodyExcerpt: z.nullable(z.string()),
  willRetry: z.boolean(),
  nextAttemptAt: z.nullable(z.string()),
  test: z.boolean(),
  redelivery: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
});

export const deliveredQuery = z.object({
  // Ids and types are short; a longer value can name nothing, and the event filter puts it in a key.
  webhookId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  eventId: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  eventType: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  status: z.optional(z.enum(['success', 'failed'])),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  after: z.optional(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'after must be the id of a delivery log entry'))),
  cursor: z
    .optional(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'cursor must be the nextCursor of a page of the delivery log')))
    .check(z.describe('nextCursor of the previous page (same as after)')),
});

export const deliveredListSchema = z.object({
  deliveries: z.array(attemptSchema),
  hasMore: z.boolean(),
  next: z.nullable(z.string()).check(z.describe('Pass as `after` to read the next page')),
  nextCursor: z.nullable(z.string()).check(z.describe('Pass as `cursor` to read the next page (the same value as next)')),
});
