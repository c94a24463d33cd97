import * as z from '../platform/zod';
import { AREAS, ROLES } from '../platform/permissions';

// ---- sign-in ----

export const magicLinkBody = z.strictObject({ email: z.string().check(z.trim(), z.email(), z.maxLength(254)) });
export const magicLinkAnswer = z.object({ sent: z.literal(true) });

export const sessionBody = z.strictObject({ token: z.string().check(z.minLength(1), z.maxLength(200)) });

const roleSchema = z.enum(ROLES);
const areaSchema = z.enum(AREAS);
const modeSchema = z.enum(['live', 'test']);

export const storeSessionSchema = z.object({
  accountId: z.string(),
  storeName: z.string(),
  mode: modeSchema,
  role: roleSchema,
  areas: z.array(areaSchema),
  /** null for the account owner (who acts as the owner's key does). */
  memberId: z.nullable(z.string()),
  /** The API session token (Bearer) for this store and mode. */
  token: z.string(),
});

export const sessionAnswer = z.object({
  expiresAt: z.string(),
  email: z.string(),
  stores: z.array(storeSessionSchema),
});

export const meAnswer = z.object({
  accountId: z.string(),
  storeName: z.string(),
  mode: modeSchema,
  role: roleSchema,
  areas: z.array(areaSchema),
  email: z.string(),
  expiresAt: z.string(),
});

// ---- API keys ----

export const apiKeySchema = z.object({
  id: z.string(),
  /** Null for keys made before keys had names (the admin CLI's first keys, the demo account's). */
  name: z.nullable(z.string()),
  mode: modeSchema,
  /** The first characters of the key, enough to tell keys apart, never to use one. */
  prefix: z.string(),
  createdAt: z.string(),
  revokedAt: z.optional(z.string()),
});

export const apiKeyListAnswer = z.object({ data: z.array(apiKeySchema) });
export const apiKeyBody = z.strictObject({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)) });
export const createdApiKeyAnswer = z.extend(z.omit(apiKeySchema, { revokedAt: true }), {
  /** The secret key: shown in this answer only, never again. */
  key: z.string(),
});
export const apiKeyParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
export const revokedApiKeyAnswer = z.object({ id: z.string(), revokedAt: z.string() });
