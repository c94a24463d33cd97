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

// ---- community ----

export const threadParams = z.object({ id: z.string().min(1).max(64), threadId: z.string().min(1).max(64) });
export const replyParams = threadParams.extend({ replyId: z.string().min(1).max(64) });

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.string().max(2000).optional(),
});

export const threadCreateBody = z
  .object({
    title: z.string().trim().min(1, 'title is required').max(200),
    body: z.string().trim().min(1, 'body is required').max(10_000),
  })
  .strict();

export const replyCreateBody = z.object({ body: z.string().trim().min(1, 'body is required').max(10_000) }).strict();

export const threadModerateBody = z
  .object({ hidden: z.boolean().optional(), locked: z.boolean().optional(), pinned: z.boolean().optional() })
  .strict()
  .refine((b) => b.hidden !== undefined || b.locked !== undefined || b.pinned !== undefined, { message: 'Give at least one of hidden, locked, pinned' });

export const replyModerateBody = z.object({ hidden: z.boolean() }).strict();

const authorSchema = z.object({ email: z.string(), name: z.string().nullable(), role: z.enum(['member', 'creator']) });

export const threadSchema = z.object({
  _id: z.string(),
  membershipId: z.string(),
  title: z.string(),
  body: z.string(),
  author: authorSchema,
  hidden: z.boolean(),
  locked: z.boolean(),
  pinned: z.boolean(),
  replyCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const replySchema = z.object({
  _id: z.string(),
  threadId: z.string(),
  body: z.string(),
  author: authorSchema,
  hidden: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const threadPageSchema = z.object({ data: z.array(threadSchema), nextCursor: z.string().nullable() });
export const threadDetailSchema = threadSchema.extend({ replies: z.object({ data: z.array(replySchema), nextCursor: z.string().nullable() }) });
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

export const banBody = z.object({ email: z.string().trim().email('email must be an email address').max(320), hideContent: z.boolean().default(false) }).strict();
export const unbanBody = z.object({ email: z.string().trim().email('email must be an email address').max(320) }).strict();
export const banSchema = z.object({ email: z.string(), banned: z.literal(true), hideContent: z.boolean(), bannedAt: z.string() });
export const unbanSchema = z.object({ email: z.string(), banned: z.literal(false) });
