import * as z from 'zod';
import { CONTACT_SOURCES, CONTACT_STATUSES } from './records';
import { MAX_TAG_LENGTH } from './rules';

const tag = z.string().trim().min(1).max(MAX_TAG_LENGTH);
const consentSchema = z.object({ source: z.string().min(1).max(100), wording: z.string().max(2000), optedInAt: z.string().datetime() });

export const contactSchema = z.object({
  _id: z.string(),
  email: z.string(),
  status: z.enum(CONTACT_STATUSES),
  source: z.enum(CONTACT_SOURCES).nullable(),
  tags: z.array(z.string()),
  smartTags: z.array(z.string()),
  consent: consentSchema.nullable(),
  name: z.string().nullable(),
  country: z.string().nullable(),
  firstPurchaseAt: z.string().nullable(),
  lastPurchaseAt: z.string().nullable(),
  totalSpentCents: z.number().int(),
  productIds: z.array(z.string()),
  lastOpenAt: z.string().nullable(),
  lastClickAt: z.string().nullable(),
  unsubscribedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex subscriber id') });

export const listQuery = z.object({
  status: z.enum(CONTACT_STATUSES).optional(),
  tag: tag.optional(),
  q: z.string().trim().min(1).max(254).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  after: z.string().max(2000).optional(),
});

export const listOutput = z.object({ data: z.array(contactSchema), nextCursor: z.string().nullable() });

export const createBody = z.object({
  email: z.string().trim().email(),
  name: z.string().trim().max(200).nullable().optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'country is an ISO 3166 alpha-2 code').nullable().optional(),
  tags: z.array(tag).max(20).optional(),
  source: z.enum(CONTACT_SOURCES).optional(),
  status: z.enum(['subscribed', 'unsubscribed']).optional(),
  consent: consentSchema.nullable().optional(),
});

export const updateBody = z
  .object({
    name: z.string().trim().max(200).nullable().optional(),
    country: z.string().regex(/^[A-Za-z]{2}$/, 'country is an ISO 3166 alpha-2 code').nullable().optional(),
    status: z.enum(['subscribed', 'unsubscribed']).optional(),
    consent: consentSchema.nullable().optional(),
  })
  .strict();

export const tagsBody = z.object({ tags: z.array(tag).min(1).max(20) });
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
