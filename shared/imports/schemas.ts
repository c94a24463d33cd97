import * as z from '../platform/zod';
import { KINDS, SOURCES } from './platforms';

export const kindSchema = z.enum(KINDS, { error: `must be one of ${KINDS.join(', ')}` });
const MAX_CSV = 10 * 1024 * 1024;

export const fileInput = z.object({
  kind: kindSchema,
  filename: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200, 'must be at most 200 characters')),
  csv: z.string({ error: 'must be the CSV text' }).check(z.minLength(1, 'must not be empty'), z.maxLength(MAX_CSV, 'must be at most 10 MB')),
});

export const createBody = z.object({
  source: z.enum(SOURCES as unknown as [string, ...string[]], { error: `must be one of ${SOURCES.join(', ')}` }),
  files: z.optional(z.array(fileInput).check(z.maxLength(KINDS.length, `at most ${KINDS.length} files, one per kind`))),
});

export const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'must be a 24-hex id')) });
export const kindParams = z.extend(idParams, { kind: kindSchema });

export const mappingBody = z.object({
  mapping: z.record(z.string(), z.nullable(z.string().check(z.minLength(1))), { error: 'must be an object { field: column | null }' }),
});

export const listQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100, 'must be at most 100')), 20),
});

export const rowsQuery = z.extend(listQuery, {
  kind: z.optional(kindSchema),
  filter: z.optional(z.enum(['problems', 'all'])),
});

export const connectBody = z.object({
  token: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(500, 'must be at most 500 characters')),
  /** Shopify only: the store's myshopify.com domain. */
  shop: z.optional(z.string().check(z.trim(), z.maxLength(255))),
});

export const importView = z.looseObject({
  _id: z.string(),
  source: z.string(),
  status: z.enum(['draft', 'running', 'completed', 'failed', 'canceled']),
  files: z.array(
    z.object({
      kind: kindSchema,
      filename: z.string(),
      columns: z.array(z.string()),
      rowCount: z.number().check(z.int()),
      status: z.enum(['processing', 'ready']),
      rowsStored: z.number().check(z.int()),
      addedAt: z.string(),
    }),
  ),
  mapping: z.record(z.string(), z.record(z.string(), z.nullable(z.string()))),
  dryRun: z.nullable(z.record(z.string(), z.unknown())),
  dryRunComputing: z.boolean(),
  progress: z.record(z.string(), z.record(z.string(), z.number())),
  cancelRequested: z.boolean(),
  createdBy: z.object({ type: z.enum(['user', 'admin']) }),
  createdAt: z.string(),
  updatedAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
});
