import * as z from 'zod';
import { DELIVERABLE_EVENT_TYPES } from './catalog';

export const eventSchema = z
  .object({ id: z.string(), type: z.string(), created: z.number().int().describe('Unix seconds') })
  .catchall(z.unknown())
  .describe('The body a webhook delivery of this event carries, without `webhookId`');

export const eventIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be an event id (24 hex characters)') });

export const listEventsQuery = z.object({
  type: z
    .string()
    .refine((type) => DELIVERABLE_EVENT_TYPES.includes(type), { message: 'type must be a deliverable event type of the catalog' })
    .optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(2000).optional().describe('`next` of the previous page'),
});

export const eventListSchema = z.object({
  events: z.array(eventSchema),
  hasMore: z.boolean(),
  next: z.string().nullable().describe('Pass as `cursor` to read the next (older) page'),
});
