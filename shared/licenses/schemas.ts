import * as z from '../platform/zod';

const keyField = z
  .string({ error: 'key is required' })
  .check(z.minLength(1, 'key is required'), z.maxLength(100, 'key: not a licence key'))
  .check(z.describe('The licence key, like ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2-34567'));
const instanceId = z
  .string({ error: 'instanceId is required' })
  .check(z.maxLength(100, 'instanceId: not an instance id'))
  .check(z.describe('The instance id activate answered (inst_...)'));

export const activateBody = z.object({
  key: keyField,
  instanceName: z
    .string({ error: 'instanceName is required' })
    .check(z.trim(), z.minLength(1, 'instanceName must not be empty'), z.maxLength(200, 'instanceName is at most 200 characters'))
    .check(z.describe('A name for the machine or install, shown to the seller')),
});
export const validateBody = z.object({ key: keyField, instanceId: z.optional(instanceId) });
export const deactivateBody = z.object({ key: keyField, instanceId });

const publicLicense = z.object({
  status: z.enum(['active', 'revoked', 'refunded', 'expired']),
  activationLimit: z.number().check(z.int()),
  activations: z.number().check(z.int()),
  expiresAt: z.nullable(z.string()),
  productName: z.string(),
});
const instance = z.object({ id: z.string(), name: z.string() });

export const activateAnswer = z.object({ activated: z.literal(true), instance, license: publicLicense });
export const validateAnswer = z.object({ valid: z.boolean(), license: z.nullable(publicLicense), instance: z.optional(z.nullable(instance)) });
export const deactivateAnswer = z.object({ deactivated: z.literal(true), license: publicLicense });

export const licenseSchema = z.object({
  _id: z.string(),
  prefix: z.string().check(z.describe('The first group of the key, to recognise it; the whole key is on the order (GET /orders/{id})')),
  productId: z.string(),
  productName: z.string(),
  orderId: z.string(),
  customerEmail: z.string(),
  status: z.enum(['active', 'revoked', 'refunded', 'expired']),
  activationLimit: z.number().check(z.int()),
  activations: z.number().check(z.int()),
  expiresAt: z.nullable(z.string()),
  testMode: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const listQuery = z.object({
  productId: z.optional(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'productId must be a 24-hex id'))),
  orderId: z.optional(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'orderId must be a 24-hex id'))),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  cursor: z.optional(z.string().check(z.maxLength(2000))),
});

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
