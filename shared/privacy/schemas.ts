import * as z from '../platform/zod';

export const customerParams = z.strictObject({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const erasureSchema = z.object({
  customerId: z.string(),
  status: z.enum(['running', 'completed']),
  done: z.array(z.string()).check(z.describe('Parts of the data already erased')),
  requestedAt: z.string(),
  completedAt: z.nullable(z.string()),
});

export const erasureMessage = z.object({
  accountId: z.string().check(z.minLength(1)),
  mode: z.enum(['live', 'test']),
  customerId: z.string().check(z.minLength(1)),
});

export const exportTokenParams = z.strictObject({ token: z.string().check(z.minLength(20), z.maxLength(64), z.regex(/^[A-Za-z0-9]+$/)) });

export const exportSchema = z.object({
  url: z.string().check(z.describe('Downloads the JSON without an API key, until validUntil')),
  validUntil: z.string(),
  bytes: z.number().check(z.describe('Size of the JSON file')),
});
