import * as z from 'zod';
import { AREAS, ROLES } from '../platform/permissions';
import { MAX_TEAMS } from './rules';

export const idParams = z.object({ id: z.string().min(1).max(64) });
export const roleSchema = z.enum(ROLES);
export const areaSchema = z.enum(AREAS);
const teamIdsSchema = z.array(z.string().min(1).max(64)).max(MAX_TEAMS);

export const inviteBody = z.object({ email: z.string().trim().email().max(254), role: roleSchema, teamIds: teamIdsSchema.optional() }).strict();

export const memberChangeBody = z
  .object({ role: roleSchema.optional(), teamIds: teamIdsSchema.optional(), status: z.enum(['active', 'suspended']).optional() })
  .strict()
  .refine((b) => b.role !== undefined || b.teamIds !== undefined || b.status !== undefined, { message: 'Send at least one of role, teamIds, status' });

export const teamBody = z.object({ name: z.string().trim().min(1).max(80), areas: z.array(areaSchema).max(AREAS.length) }).strict();
export const teamChangeBody = z
  .object({ name: z.string().trim().min(1).max(80).optional(), areas: z.array(areaSchema).max(AREAS.length).optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.areas !== undefined, { message: 'Send name or areas' });

export const activityQuery = z.object({ before: z.string().max(40).optional(), limit: z.coerce.number().int().min(1).max(100).default(50) });
export const joinQuery = z.object({ token: z.string().max(2000).default('') });
export const joinBody = z.object({ token: z.string().max(2000).default(''), name: z.string().max(120).optional() });

export const memberSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  teamIds: z.array(z.string()),
  status: z.enum(['active', 'suspended']),
  joinedAt: z.string(),
});
export const inviteSchema = z.object({ id: z.string(), email: z.string(), role: roleSchema, teamIds: z.array(z.string()), expiresAt: z.string() });
export const teamSchema = z.object({ _id: z.string(), name: z.string(), areas: z.array(areaSchema), createdAt: z.string(), updatedAt: z.string() });
export const seatsSchema = z.object({ limit: z.number().int(), used: z.number().int(), pending: z.number().int() });
export const teamAnswer = z.object({ members: z.array(memberSchema), invites: z.array(inviteSchema), teams: z.array(teamSchema), seats: seatsSchema });
export const inviteAnswer = z.object({ invite: inviteSchema, emailSent: z.boolean() });
export const activityAnswer = z.object({
  activity: z.array(
    z.object({
      _id: z.string(),
      at: z.string(),
      actor: z.object({ type: z.enum(['owner_key', 'member', 'system']), memberId: z.string().optional(), email: z.string().optional() }),
      action: z.string(),
      target: z.object({ type: z.string(), id: z.string().optional(), email: z.string().optional() }),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  ),
  nextBefore: z.string().nullable(),
});
export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
export const canceledSchema = z.object({ id: z.string(), canceled: z.literal(true) });
