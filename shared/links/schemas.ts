import * as z from '../platform/zod';
import { CHANNELS, LINK_LIMITS } from './rules';

export const linkCreateBody = z.object({
  channel: z.enum(CHANNELS),
  targetUrl: z.string().check(z.minLength(1), z.maxLength(LINK_LIMITS.targetUrl), z.describe('http or https address the short link sends people to')),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(LINK_LIMITS.name)),
});

export const linkIdParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id is a 24-character hex id')) });
export const linkCodeParams = z.object({ code: z.string().check(z.minLength(1), z.maxLength(64)) });

export const linkListQuery = z.object({
  limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(LINK_LIMITS.pageSize))),
  after: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.describe('nextCursor of the previous page')),
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
  url: z.string().check(z.describe('The short address to share; each visit is counted and redirected')),
  code: z.string(),
  createdAt: z.string(),
  stats: stats.check(z.describe('Clicks, unique visitors, attributed sales and revenue; `locked: true` below Pro')),
});

export const linkListSchema = z.object({ data: z.array(linkSchema), nextCursor: z.nullable(z.string()) });
export const linkDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
