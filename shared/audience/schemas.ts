import * as z from '../platform/zod';
import { CONTACT_SOURCES, CONTACT_STATUSES } from './records';
import { MAX_TAG_LENGTH } from './rules';

const tag = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TAG_LENGTH));
const consentSchema = z.object({
  source: z.string().check(z.minLength(1), z.maxLength(100)),
  wording: z.string().check(z.maxLength(2000)),
  optedInAt: z.string().check(z.iso.datetime()),
});

export const contactSchema = z.object({
  _id: z.string(),
  email: z.string(),
  status: z.enum(CONTACT_STATUSES),
  source: z.nullable(z.enum(CONTACT_SOURCES)),
  tags: z.array(z.string()),
  smartTags: z.array(z.string()),
  consent: z.nullable(consentSchema),
  name: z.nullable(z.string()),
  country: z.nullable(z.string()),
  firstPurchaseAt: z.nullable(z.string()),
  lastPurchaseAt: z.nullable(z.string()),
  totalSpentCents: z.number().check(z.int()),
  productIds: z.array(z.string()),
  lastOpenAt: z.nullable(z.string()),
  lastClickAt: z.nullable(z.string()),
  unsubscribedAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex subscriber id')) });

export const listQuery = z.object({
  status: z.optional(z.enum(CONTACT_STATUSES)),
  tag: z.optional(tag),
  q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(254))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  after: z.optional(z.string().check(z.maxLength(2000))),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.describe('nextCursor of the previous page (same as after)')),
});

export const listOutput = z.object({ data: z.array(contactSchema), nextCursor: z.nullable(z.string()) });

export const createBody = z.object({
  email: z.string().check(z.trim(), z.email()),
  name: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(200)))),
  country: z.optional(z.nullable(z.string().check(z.regex(/^[A-Za-z]{2}$/, 'country is an ISO 3166 alpha-2 code')))),
  tags: z.optional(z.array(tag).check(z.maxLength(20))),
  source: z.optional(z.enum(CONTACT_SOURCES)),
  status: z.optional(z.enum(['subscribed', 'unsubscribed'])),
  consent: z.optional(z.nullable(consentSchema)),
});

export const updateBody = z.strictObject({
  name: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(200)))),
  country: z.optional(z.nullable(z.string().check(z.regex(/^[A-Za-z]{2}$/, 'country is an ISO 3166 alpha-2 code')))),
  status: z.optional(z.enum(['subscribed', 'unsubscribed'])),
  consent: z.optional(z.nullable(consentSchema)),
});

export const tagsBody = z.object({ tags: z.array(tag).check(z.minLength(1), z.maxLength(20)) });
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
