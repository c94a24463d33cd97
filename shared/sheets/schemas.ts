import * as z from 'zod';

export const syncViewSchema = z.object({
  connected: z.boolean(),
  status: z.enum(['not_connected', 'active', 'paused', 'disconnected']),
  pausedReason: z.enum(['plan', 'access_removed', 'spreadsheet_deleted']).nullable(),
  permission: z.string(),
  spreadsheet: z.object({ id: z.string(), title: z.string(), url: z.string() }).nullable(),
  settings: z.object({ tabs: z.object({ sales: z.boolean(), customers: z.boolean() }) }),
  counts: z.object({ synced: z.number().int(), pending: z.number().int(), failed: z.number().int() }),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  lastError: z.string().nullable(),
  entitlement: z.object({ allowed: z.boolean(), requiredPlan: z.string() }),
});

export const disconnectSchema = syncViewSchema.extend({ revoked: z.boolean() });

export const spreadsheetBody = z
  .object({
    spreadsheetId: z.string().trim().min(1).max(200).optional(),
    title: z.string().trim().min(1).max(100).optional(),
  })
  .strict()
  .refine((body) => Boolean(body.spreadsheetId) !== Boolean(body.title), { message: 'Send either spreadsheetId (one created earlier by this service) or title (to create a new one)' });

export const settingsBody = z
  .object({ tabs: z.object({ sales: z.boolean().optional(), customers: z.boolean().optional() }).strict().optional() })
  .strict();

export const backfillBody = z.object({ days: z.union([z.literal(0), z.literal(7), z.literal(30), z.literal(90), z.literal(365)], { message: 'days must be 0, 7, 30, 90 or 365' }) }).strict();

export const callbackQuery = z.object({ code: z.string().max(2000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() });
