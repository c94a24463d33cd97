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
