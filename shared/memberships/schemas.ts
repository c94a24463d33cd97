import * as z from '../platform/zod';
import { once } from '../platform/once';

/**
 * The membership operations' schemas, built on the first request that needs one (platform/once.ts):
 * the function's cold import builds none. Operations reach them through getters (operations.ts).
 */
export const membershipSchemas = once(() => {
  const idList = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(50, 'at most 50 ids'));

  const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

  const membershipCreateBody = z.strictObject({
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

  const membershipUpdateBody = z.strictObject({
    name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
    offerIds: z.optional(idList),
    productIds: z.optional(idList),
    productBuyersJoin: z.optional(z.boolean()),
    communityEnabled: z.optional(z.boolean()),
    postEmailsEnabled: z.optional(z.boolean()),
  });

  const membershipListQuery = z.object({ status: z.optional(z.enum(['active', 'archived'])) });

  const membershipSchema = z.object({
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

  const membersQuery = z.object({
    status: z.optional(z.enum(['active', 'ended'])),
    q: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(z.string().check(z.maxLength(2000))),
  });

  const memberSchema = z.object({
    email: z.string(),
    name: z.nullable(z.string()),
    status: z.enum(['active', 'ended']),
    joinedAt: z.string(),
    leftAt: z.nullable(z.string()),
    leftReason: z.nullable(z.enum(['subscription_ended', 'membership_changed', 'membership_closed'])),
  });

  const membersPageSchema = z.object({
    data: z.array(memberSchema),
    page: z.number().check(z.int()),
    limit: z.number().check(z.int()),
    nextCursor: z.nullable(z.string()),
    counts: z.object({ all: z.number().check(z.int()), active: z.number().check(z.int()), ended: z.number().check(z.int()) }),
  });

  // ---- posts ----

  const postParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), postId: z.string().check(z.minLength(1), z.maxLength(64)) });

  const postCreateBody = z.strictObject({
    title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(200)),
    html: z.string().check(z.minLength(1, 'html is required'), z.maxLength(200_000)),
    status: z._default(z.enum(['draft', 'published']), 'draft'),
    notify: z._default(z.boolean(), false),
    pinned: z.optional(z.boolean()),
  });

  const postUpdateBody = z.strictObject({
    title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
    html: z.optional(z.string().check(z.minLength(1), z.maxLength(200_000))),
    status: z.optional(z.enum(['draft', 'published'])),
    notify: z.optional(z.boolean()),
    pinned: z.optional(z.boolean()),
  });

  const postListQuery = z.object({
    status: z.optional(z.enum(['draft', 'published'])),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    cursor: z.optional(z.string().check(z.maxLength(2000))),
  });

  const postSchema = z.object({
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

  const postPageSchema = z.object({ data: z.array(postSchema), nextCursor: z.nullable(z.string()) });
  const postDeletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

  // ---- community ----

  const threadParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), threadId: z.string().check(z.minLength(1), z.maxLength(64)) });
  const replyParams = z.extend(threadParams, { replyId: z.string().check(z.minLength(1), z.maxLength(64)) });

  const pageQuery = z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(z.string().check(z.maxLength(2000))),
  });

  const threadCreateBody = z.strictObject({
    title: z.string().check(z.trim(), z.minLength(1, 'title is required'), z.maxLength(200)),
    body: z.string().check(z.trim(), z.minLength(1, 'body is required'), z.maxLength(10_000)),
  });

  const replyCreateBody = z.strictObject({ body: z.string().check(z.trim(), z.minLength(1, 'body is required'), z.maxLength(10_000)) });

  const threadModerateBody = z
    .strictObject({ hidden: z.optional(z.boolean()), locked: z.optional(z.boolean()), pinned: z.optional(z.boolean()) })
    .check(
      z.refine((b) => b.hidden !== undefined || b.locked !== undefined || b.pinned !== undefined, { message: 'Give at least one of hidden, locked, pinned' }),
    );

  const replyModerateBody = z.strictObject({ hidden: z.boolean() });

  const authorSchema = z.object({ email: z.string(), name: z.nullable(z.string()), role: z.enum(['member', 'creator']) });

  const threadSchema = z.object({
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

  const replySchema = z.object({
    _id: z.string(),
    threadId: z.string(),
    body: z.string(),
    author: authorSchema,
    hidden: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  });

  const threadPageSchema = z.object({ data: z.array(threadSchema), nextCursor: z.nullable(z.string()) });
  const threadDetailSchema = z.extend(threadSchema, { replies: z.object({ data: z.array(replySchema), nextCursor: z.nullable(z.string()) }) });
  const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

  const banBody = z.strictObject({
    email: z.string().check(z.trim(), z.email('email must be an email address'), z.maxLength(320)),
    hideContent: z._default(z.boolean(), false),
  });
  const unbanBody = z.strictObject({ email: z.string().check(z.trim(), z.email('email must be an email address'), z.maxLength(320)) });
  const banSchema = z.object({ email: z.string(), banned: z.literal(true), hideContent: z.boolean(), bannedAt: z.string() });
  const unbanSchema = z.object({ email: z.string(), banned: z.literal(false) });
  const membershipList = z.array(membershipSchema);
  return {
    membershipList,
    idParams,
    membershipCreateBody,
    membershipUpdateBody,
    membershipListQuery,
    membershipSchema,
    membersQuery,
    memberSchema,
    membersPageSchema,
    postParams,
    postCreateBody,
    postUpdateBody,
    postListQuery,
    postSchema,
    postPageSchema,
    postDeletedSchema,
    threadParams,
    replyParams,
    pageQuery,
    threadCreateBody,
    replyCreateBody,
    threadModerateBody,
    replyModerateBody,
    threadSchema,
    replySchema,
    threadPageSchema,
    threadDetailSchema,
    deletedSchema,
    banBody,
    unbanBody,
    banSchema,
    unbanSchema,
  };
});

export type MembershipSchemas = ReturnType<typeof membershipSchemas>;
