import * as z from '../platform/zod';

const isoTime = (field: string) =>
  z.optional(
    z.string().check(
      z.maxLength(40),
      z.refine((value) => !Number.isNaN(Date.parse(value)), `${field}: an ISO 8601 time, e.g. 2026-11-27T08:00:00Z`),
    ),
  );

export const auditQuery = z.strictObject({
  actor: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(320), z.describe('An API key id, a team member id or email, `staff` or `system`'))),
  action: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('The operation name, e.g. createProduct'))),
  target: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('The id of the record written'))),
  from: isoTime('from'),
  to: isoTime('to'),
  cursor: z.optional(z.string().check(z.maxLength(40), z.describe('`next` of the previous page'))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
});

export const auditActorSchema = z.object({
  type: z.enum(['api_key', 'owner', 'member', 'staff', 'system']),
  id: z.string(),
  email: z.optional(z.string()),
});

export const auditRowSchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: auditActorSchema,
  action: z.string(),
  target: z.object({ type: z.string(), id: z.nullable(z.string()), email: z.optional(z.string()) }),
  ip: z.nullable(z.string()),
  details: z.optional(z.record(z.string(), z.unknown())),
});

export const auditPageSchema = z.object({ entries: z.array(auditRowSchema), next: z.nullable(z.string()) });

export type AuditRow = z.infer<typeof auditRowSchema>;
