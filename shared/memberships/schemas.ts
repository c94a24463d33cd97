import * as z from '../platform/zod';

const idList = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(50, 'at most 50 ids'));

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const membershipCreateBody = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1, 'name is required'), z.maxLength(120)),
  offerIds: z._default(idList, []),
  productIds: z._default(idList, []),
  productBuyersJoin: z
    .optional(z.boolean())
    .check(
      z.describe(
        'Buyers of productIds become members too (lifetime, until a full refund). Off by default: members are the subscribers of offerIds, as the spec says',
      ),
    ),
  communityEnabled: z.optional(z.boolean()),
  postEmailsEnabled: z.optional(z.boolean()),
});

export const membershipUpdateBody = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
  offerIds: z.optional(idList),
  productIds: z.optional(idList),
  productBuyersJoin: z.optional(z.boolean()),
  communityEnabled: z.optional(z.boolean()),
  postEmailsEnabled: z.optional(z.boolean()),
});

export const membershipListQuery = z.object({ status: z.optional(z.enum(['active', 'archived'])) });

export const membershipSchema = z.object({
  _id: z.string(),
  name: z.string(),
  slug: z.string(),
  offerIds: z.array(z.string()),
  productIds: z.array(z.string()),
  productBuyersJoin: z.boolean(),
  status: z.enum(['active', 'archived']),
  communityEnabled: z.boolean(),
  postEmailsEnabled: z.boolean(),
  memberCount: z.optional(z.number().check(z.int())),
  testMode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archivedAt: z.nullable(z.string()),
});

export const membersQuery = z.object({
  status: z.optional(z.enum(['active', 'ended'])),
  q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const memberSchema = z.object({
  email: z.string(),
  name: z.nullable(z.string()),
  status: z.enum(['active', 'ended']),
  joinedAt: z.string(),
  leftAt: z.nullable(z.string()),
  leftReason: z.nullable(z.enum(['subscription_ended', 'membership_changed', 'membership_closed'])),
});

export const membersPageSchema = z.object({
  data: z.array(memberSchema),
  page: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  nextCursor: z.nullable(z.string()),
  counts: z.object({ all: z.number().check(z.int()), active: z.number().check(z.int()), ended: z.number().check(z.int()) }),
});

// ---- posts ----

export const postParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), postId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const postCreateBody = z.strictObject({
  title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(200)),
  html: z.string().check(z.minLength(1, 'html is required'), z.maxLength(200_000)),
  status: z._default(z.enum(['draft', 'published']), 'draft'),
  notify: z._default(z.boolean(), false),
  pinned: z.optional(z.boolean()),
});

export const postUpdateBody = z.strictObject({
  title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  html: z.optional(z.string().check(z.minLength(1), z.maxLength(200_000))),
  status: z.optional(z.enum(['draft', 'published'])),
  notify: z.optional(z.boolean()),
  pinned: z.optional(z.boolean()),
});

export const postListQuery = z.object({
  status: z.optional(z.enum(['draft', 'published'])),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const postSchema = z.object({
  _id: z.string(),
  membershipId: z.string(),
  title: z.string(),
  html: z.string(),
  status: z.enum(['draft', 'published']),
  notify: z.boolean(),
  pinned: z.boolean(),
  notifyState: z.nullable(z.enum(['pending', 'sending', 'sent'])),
  notifiedCount: z.number().check(z.int()),
  publishedAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const postPageSchema = z.object({ data: z.array(postSchema), nextCursor: z.nullable(z.string()) });
export const postDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

// ---- community ----

export const threadParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), threadId: z.string().check(z.minLength(1), z.maxLength(64)) });
export const replyParams = z.extend(threadParams, { replyId: z.string().check(z.minLength(1), z.maxLength(64)) });

export const pageQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const threadCreateBody = z.strictObject({
  title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(200)),
  body: z.string().check(z.trim(), z.minLength(1, 'body is required'), z.maxLength(10_000)),
});

export const replyCreateBody = z.strictObject({ body: z.string().check(z.trim(), z.minLength(1, 'body is required'), z.maxLength(10_000)) });

export const threadModerateBody = z
  .strictObject({ hidden: z.optional(z.boolean()), locked: z.optional(z.boolean()), pinned: z.optional(z.boolean()) })
  .check(
    z.refine((b) => b.hidden !== undefined || b.locked !== undefined || b.pinned !== undefined, { message: 'Give at least one of hidden, locked, pinned' }),
  );

export const replyModerateBody = z.strictObject({ hidden: z.boolean() });

const authorSchema = z.object({ email: z.string(), name: z.nullable(z.string()), role: z.enum(['member', 'creator']) });

export const threadSchema = z.object({
  _id: z.string(),
  membershipId: z.string(),
  title: z.string(),
  body: z.string(),
  author: authorSchema,
  hidden: z.boolean(),
  locked: z.boolean(),
  pinned: z.boolean(),
  replyCount: z.number().check(z.int()),
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

export const threadPageSchema = z.object({ data: z.array(threadSchema), nextCursor: z.nullable(z.string()) });
export const threadDetailSchema = z.extend(threadSchema, { replies: z.object({ data: z.array(replySchema), nextCursor: z.nullable(z.string()) }) });
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

export const banBody = z.strictObject({
  email: z.string().check(z.trim(), z.email('email must be an email address'), z.maxLength(320)),
  hideContent: z._default(z.boolean(), false),
});
export const unbanBody = z.strictObject({ email: z.string().check(z.trim(), z.email('email must be an email address'), z.maxLength(320)) });
export const banSchema = z.object({ email: z.string(), banned: z.literal(true), hideContent: z.boolean(), bannedAt: z.string() });
export const unbanSchema = z.object({ email: z.string(), banned: z.literal(false) });
