import * as z from 'zod';
import { AREAS, ROLES } from '../platform/permissions';

// ---- sign-in ----

export const magicLinkBody = z.object({ email: z.string().trim().email().max(254) }).strict();
export const magicLinkAnswer = z.object({ sent: z.literal(true) });

export const sessionBody = z.object({ token: z.string().min(1).max(200) }).strict();

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
  memberId: z.string().nullable(),
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
  name: z.string().nullable(),
  mode: modeSchema,
  /** The first characters of the key, enough to tell keys apart, never to use one. */
  prefix: z.string(),
  createdAt: z.string(),
  revokedAt: z.string().optional(),
});

export const apiKeyListAnswer = z.object({ data: z.array(apiKeySchema) });
export const apiKeyBody = z.object({ name: z.string().trim().min(1).max(80) }).strict();
export const createdApiKeyAnswer = apiKeySchema.omit({ revokedAt: true }).extend({
  /** The secret key: shown in this answer only, never again. */
  key: z.string(),
});
export const apiKeyParams = z.object({ id: z.string().min(1).max(64) });
export const revokedApiKeyAnswer = z.object({ id: z.string(), revokedAt: z.string() });
