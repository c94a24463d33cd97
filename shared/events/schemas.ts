import * as z from '../platform/zod';
import { DELIVERABLE_EVENT_TYPES } from './catalog';

export const eventSchema = z
  .catchall(z.object({ id: z.string(), type: z.string(), created: z.number().check(z.int(), z.describe('Unix seconds')) }), z.unknown())
  .check(z.describe('The body a webhook delivery of this event carries, without `webhookId`'));

export const eventIdParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id must be an event id (24 hex characters)')) });

export const listEventsQuery = z.object({
  type: z.optional(
    z.string().check(z.refine((type) => DELIVERABLE_EVENT_TYPES.includes(type), { message: 'type must be a deliverable event type of the catalog' })),
  ),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.describe('`next` of the previous page')),
});

export const eventListSchema = z.object({
  events: z.array(eventSchema),
  hasMore: z.boolean(),
  next: z.nullable(z.string()).check(z.describe('Pass as `cursor` to read the next (older) page')),
  nextCursor: z.nullable(z.string()).check(z.describe('The same as next')),
});
