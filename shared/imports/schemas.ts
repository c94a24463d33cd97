import * as z from 'zod';
import { KINDS, SOURCES } from './platforms';

export const kindSchema = z.enum(KINDS, { error: `must be one of ${KINDS.join(', ')}` });
const MAX_CSV = 10 * 1024 * 1024;

export const fileInput = z.object({
  kind: kindSchema,
  filename: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  csv: z.string({ error: 'must be the CSV text' }).min(1, 'must not be empty').max(MAX_CSV, 'must be at most 10 MB'),
});

export const createBody = z.object({
  source: z.enum(SOURCES as unknown as [string, ...string[]], { error: `must be one of ${SOURCES.join(', ')}` }),
  files: z.array(fileInput).max(KINDS.length, `at most ${KINDS.length} files, one per kind`).optional(),
});

export const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'must be a 24-hex id') });
export const kindParams = idParams.extend({ kind: kindSchema });

export const mappingBody = z.object({
  mapping: z.record(z.string(), z.string().min(1).nullable(), { error: 'must be an object { field: column | null }' }),
});

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100, 'must be at most 100').default(20),
});

export const rowsQuery = listQuery.extend({
  kind: kindSchema.optional(),
  filter: z.enum(['problems', 'all']).optional(),
});

export const connectBody = z.object({
  token: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters'),
  /** Shopify only: the store's myshopify.com domain. */
  shop: z.string().trim().max(255).optional(),
});

export const importView = z.object({
  _id: z.string(),
  source: z.string(),
  status: z.enum(['draft', 'running', 'completed', 'failed', 'canceled']),
  files: z.array(z.object({ kind: kindSchema, filename: z.string(), columns: z.array(z.string()), rowCount: z.number().int(), status: z.enum(['processing', 'ready']), rowsStored: z.number().int(), addedAt: z.string() })),
  mapping: z.record(z.string(), z.record(z.string(), z.string().nullable())),
  dryRun: z.record(z.string(), z.unknown()).nullable(),
  dryRunComputing: z.boolean(),
  progress: z.record(z.string(), z.record(z.string(), z.number())),
  cancelRequested: z.boolean(),
  createdBy: z.object({ type: z.enum(['user', 'admin']) }),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
}).loose();
