import * as z from 'zod';
import { CHANNELS, LINK_LIMITS } from './rules';

export const linkCreateBody = z.object({
  channel: z.enum(CHANNELS),
  targetUrl: z.string().min(1).max(LINK_LIMITS.targetUrl).describe('http or https address the short link sends people to'),
  name: z.string().trim().min(1).max(LINK_LIMITS.name),
});

export const linkIdParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id is a 24-character hex id') });
export const linkCodeParams = z.object({ code: z.string().min(1).max(64) });

export const linkListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LINK_LIMITS.pageSize).optional(),
  after: z.string().min(1).max(2000).optional().describe('nextCursor of the previous page'),
});

const stats = z.union([
  z.object({ locked: z.literal(true) }),
  z.object({ locked: z.literal(false), clicks: z.number(), visitors: z.number(), sales: z.number(), revenue: z.number() }),
]);

export const linkSchema = z.object({
  _id: z.string(),
  name: z.string(),
  channel: z.enum(CHANNELS),
  targetUrl: z.string(),
  url: z.string().describe('The short address to share; each visit is counted and redirected'),
  code: z.string(),
  createdAt: z.string(),
  stats: stats.describe('Clicks, unique visitors, attributed sales and revenue; `locked: true` below Pro'),
});

export const linkListSchema = z.object({ data: z.array(linkSchema), nextCursor: z.string().nullable() });
export const linkDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
