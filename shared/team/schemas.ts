import * as z from '../platform/zod';
import { AREAS, ROLES } from '../platform/permissions';
import { MAX_TEAMS } from './rules';

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const roleSchema = z.enum(ROLES);
export const areaSchema = z.enum(AREAS);
const teamIdsSchema = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(MAX_TEAMS));

export const inviteBody = z.strictObject({
  email: z.string().check(z.trim(), z.email(), z.maxLength(254)),
  role: roleSchema,
  teamIds: z.optional(teamIdsSchema),
});

export const memberChangeBody = z
  .strictObject({ role: z.optional(roleSchema), teamIds: z.optional(teamIdsSchema), status: z.optional(z.enum(['active', 'suspended'])) })
  .check(z.refine((b) => b.role !== undefined || b.teamIds !== undefined || b.status !== undefined, { message: 'Send at least one of role, teamIds, status' }));

export const teamBody = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  areas: z.array(areaSchema).check(z.maxLength(AREAS.length)),
});
export const teamChangeBody = z
  .strictObject({
    name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
    areas: z.optional(z.array(areaSchema).check(z.maxLength(AREAS.length))),
  })
  .check(z.refine((b) => b.name !== undefined || b.areas !== undefined, { message: 'Send name or areas' }));

export const activityQuery = z.object({
  before: z.optional(z.string().check(z.maxLength(40))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
});
export const joinQuery = z.object({ token: z._default(z.string().check(z.maxLength(2000)), '') });
export const joinBody = z.object({ token: z._default(z.string().check(z.maxLength(2000)), ''), name: z.optional(z.string().check(z.maxLength(120))) });

export const memberSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.nullable(z.string()),
  role: roleSchema,
  teamIds: z.array(z.string()),
  status: z.enum(['active', 'suspended']),
  joinedAt: z.string(),
});
export const inviteSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema, teamIds: z.array(z.string()), expiresAt: z.string() });
export const teamSchema = z.object({ _id: z.string(), name: z.string(), areas: z.array(areaSchema), createdAt: z.string(), updatedAt: z.string() });
export const seatsSchema = z.object({ limit: z.number().check(z.int()), used: z.number().check(z.int()), pending: z.number().check(z.int()) });
export const teamAnswer = z.object({ members: z.array(memberSchema), invites: z.array(inviteSchema), teams: z.array(teamSchema), seats: seatsSchema });
export const inviteAnswer = z.object({ invite: inviteSchema, emailSent: z.boolean() });
export const activityAnswer = z.object({
  activity: z.array(
    z.object({
      _id: z.string(),
      at: z.string(),
      actor: z.object({ type: z.enum(['owner_key', 'member', 'system']), memberId: z.optional(z.string()), email: z.optional(z.string()) }),
      action: z.string(),
      target: z.object({ type: z.string(), id: z.optional(z.string()), email: z.optional(z.string()) }),
      details: z.optional(z.record(z.string(), z.unknown())),
    }),
  ),
  nextBefore: z.nullable(z.string()),
});
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
export const canceledSchema = z.object({ id: z.string(), canceled: z.literal(true) });
