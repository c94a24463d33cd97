import * as z from '../platform/zod';

export const syncViewSchema = z.object({
  connected: z.boolean(),
  status: z.enum(['not_connected', 'active', 'paused', 'disconnected']),
  pausedReason: z.nullable(z.enum(['plan', 'access_removed', 'spreadsheet_deleted'])),
  permission: z.string(),
  spreadsheet: z.nullable(z.object({ id: z.string(), title: z.string(), url: z.string() })),
  settings: z.object({ tabs: z.object({ sales: z.boolean(), customers: z.boolean() }) }),
  counts: z.object({ synced: z.number().check(z.int()), pending: z.number().check(z.int()), failed: z.number().check(z.int()) }),
  attempts: z.number().check(z.int()),
  nextAttemptAt: z.nullable(z.string()),
  lastSyncedAt: z.nullable(z.string()),
  lastError: z.nullable(z.string()),
  entitlement: z.object({ allowed: z.boolean(), requiredPlan: z.string() }),
});

export const disconnectSchema = z.extend(syncViewSchema, { revoked: z.boolean() });

export const spreadsheetBody = z
  .strictObject({
    spreadsheetId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  })
  .check(
    z.refine((body) => Boolean(body.spreadsheetId) !== Boolean(body.title), {
      message: 'Send either spreadsheetId (one created earlier by this service) or title (to create a new one)',
    }),
  );

export const settingsBody = z.strictObject({ tabs: z.optional(z.strictObject({ sales: z.optional(z.boolean()), customers: z.optional(z.boolean()) })) });

export const backfillBody = z.strictObject({
  days: z.union([z.literal(0), z.literal(7), z.literal(30), z.literal(90), z.literal(365)], { message: 'days must be 0, 7, 30, 90 or 365' }),
});

export const callbackQuery = z.object({
  code: z.optional(z.string().check(z.maxLength(2000))),
  state: z.optional(z.string().check(z.maxLength(200))),
  error: z.optional(z.string().check(z.maxLength(200))),
});
