import * as z from '../platform/zod';

export const customerParams = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const erasureSchema = z.object({
  customerId: z.string(),
  status: z.enum(['running', 'completed']),
  done: z.array(z.string()).check(z.describe('Parts of the data already erased')),
  requestedAt: z.string(),
  completedAt: z.nullable(z.string()),
});

export const erasureMessage = z.object({ accountId: z.string().check(z.minLength(1)), mode: z.enum(['live', 'test']), customerId: z.string().check(z.minLength(1)) });
