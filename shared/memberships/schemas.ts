import * as z from 'zod';

const idList = z.array(z.string().min(1).max(64)).max(50, 'at most 50 ids');

export const idParams = z.object({ id: z.string().min(1).max(64) });

export const membershipCreateBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(120),
    offerIds: idList.default([]),
    productIds: idList.default([]),
    communityEnabled: z.boolean().optional(),
    postEmailsEnabled: z.boolean().optional(),
  })
  .strict();

export const membershipUpdateBody = z
  .object({
    name: z.string().trim().min(1).max(120).optional(),
    offerIds: idList.optional(),
    productIds: idList.optional(),
    communityEnabled: z.boolean().optional(),
    postEmailsEnabled: z.boolean().optional(),
  })
  .strict();

export const membershipListQuery = z.object({ status: z.enum(['active', 'archived']).optional() });

export const membershipSchema = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  offerIds: z.array(z.string()),
  productIds: z.array(z.string()),
  status: z.enum(['active', 'archived']),
  communityEnabled: z.boolean(),
  postEmailsEnabled: z.boolean(),
  memberCount: z.number().int().optional(),
  testMode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.string().nullable(),
});

export const membersQuery = z.object({
  status: z.enum(['active', 'ended']).optional(),
  q: z.string().trim().min(1).max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(2000).optional(),
});

export const memberSchema = z.object({
  email: z.string(),
  name: z.string().nullable(),
  status: z.enum(['active', 'ended']),
  joinedAt: z.string(),
  leftAt: z.string().nullable(),
  leftReason: z.enum(['subscription_ended', 'membership_changed', 'membership_closed']).nullable(),
});

export const membersPageSchema = z.object({
  data: z.array(memberSchema),
  page: z.number().int(),
  limit: z.number().int(),
  nextCursor: z.string().nullable(),
  counts: z.object({ all: z.number().int(), active: z.number().int(), ended: z.number().int() }),
});

// ---- posts ----

export const postParams = z.object({ id: z.string().min(1).max(64), postId: z.string().min(1).max(64) });

export const postCreateBody = z
  .object({
    title: z.string().trim().min(1, 'title is required').max(200),
    html: z.string().min(1, 'html is required').max(200_000),
    status: z.enum(['draft', 'published']).default('draft'),
    notify: z.boolean().default(false),
    pinned: z.boolean().optional(),
  })
  .strict();

export const postUpdateBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    html: z.string().min(1).max(200_000).optional(),
    status: z.enum(['draft', 'published']).optional(),
    notify: z.boolean().optional(),
    pinned: z.boolean().optional(),
  })
  .strict();

export const postListQuery = z.object({
  status: z.enum(['draft', 'published']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(2000).optional(),
});

export const postSchema = z.object({
  _id: z.string(),
  membershipId: z.string(),
  title: z.string(),
  html: z.string(),
  status: z.enum(['draft', 'published']),
  notify: z.boolean(),
  pinned: z.boolean(),
  notifyState: z.enum(['pending', 'sending', 'sent']).nullable(),
  notifiedCount: z.number().int(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const postPageSchema = z.object({ data: z.array(postSchema), nextCursor: z.string().nullable() });
export const postDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
