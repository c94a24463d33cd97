import * as z from '../platform/zod';
import { contactSchema } from '../audience/schemas';
import { MAX_TAG_LENGTH } from '../audience/rules';

const tag = z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TAG_LENGTH));

// The definition is checked by rules.ts (parseDefinition), so a 400 names the rule that is wrong
// (`groups[1].rules[3] (spent): op must be "gt" or "lt"`) instead of a generic union error.
const definitionInput = z.unknown().check(z.describe('`{ match: all|any, groups: [{ match, rules: [{ type, ... }] }] }`; at most 10 groups of 20 rules'));

const ruleSchema = z.looseObject({ type: z.string() });
const definitionSchema = z.object({
  match: z.enum(['all', 'any']),
  groups: z.array(z.object({ match: z.enum(['all', 'any']), rules: z.array(ruleSchema) })),
});

export const segmentSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.nullable(z.string()),
  definition: definitionSchema,
  smartTag: z.nullable(z.string()),
  smartTagRefreshedAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex segment id')) });

export const listQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1),
  pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
});
export const listOutput = z.object({ data: z.array(segmentSchema), page: z.number(), pageSize: z.number(), total: z.number() });

export const createBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  description: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(500)))),
  definition: definitionInput,
  smartTag: z.optional(z.nullable(tag)),
});

export const updateBody = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  description: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(500)))),
  definition: z.optional(definitionInput),
  smartTag: z.optional(z.nullable(tag)),
});

export const previewBody = z.object({ definition: definitionInput });

const sampleRow = z.object({ _id: z.string(), email: z.string(), name: z.nullable(z.string()) });
const evaluationFields = {
  count: z.number().check(z.int()),
  computedAt: z.string(),
  complete: z.boolean().check(z.describe('true: every subscribed contact was evaluated (kept for clients of the bounded scan)')),
  scanned: z.number().check(z.int(), z.describe('subscribed contacts evaluated')),
};
export const previewOutput = z.object({ ...evaluationFields, sample: z.array(sampleRow) });
export const countOutput = z.object({ _id: z.string(), ...evaluationFields });

export const subscribersQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  after: z.optional(z.string().check(z.maxLength(4000))),
});
export const subscribersOutput = z.object({ data: z.array(contactSchema), nextCursor: z.nullable(z.string()) });

export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
