import * as z from 'zod';
import { contactSchema } from '../audience/schemas';
import { MAX_TAG_LENGTH } from '../audience/rules';

const tag = z.string().trim().min(1).max(MAX_TAG_LENGTH);

// The definition is checked by rules.ts (parseDefinition), so a 400 names the rule that is wrong
// (`groups[1].rules[3] (spent): op must be "gt" or "lt"`) instead of a generic union error.
const definitionInput = z.unknown().describe('`{ match: all|any, groups: [{ match, rules: [{ type, ... }] }] }`; at most 10 groups of 20 rules');

const ruleSchema = z.object({ type: z.string() }).passthrough();
const definitionSchema = z.object({
  match: z.enum(['all', 'any']),
  groups: z.array(z.object({ match: z.enum(['all', 'any']), rules: z.array(ruleSchema) })),
});

export const segmentSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  definition: definitionSchema,
  smartTag: z.string().nullable(),
  smartTagRefreshedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex segment id') });

export const listQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const listOutput = z.object({ data: z.array(segmentSchema), page: z.number(), pageSize: z.number(), total: z.number() });

export const createBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500).nullable().optional(),
  definition: definitionInput,
  smartTag: tag.nullable().optional(),
});

export const updateBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    description: z.string().trim().max(500).nullable().optional(),
    definition: definitionInput.optional(),
    smartTag: tag.nullable().optional(),
  })
  .strict();

export const previewBody = z.object({ definition: definitionInput });

const sampleRow = z.object({ _id: z.string(), email: z.string(), name: z.string().nullable() });
const evaluationFields = {
  count: z.number().int(),
  computedAt: z.string(),
  complete: z.boolean().describe('true: every subscribed contact was evaluated (kept for clients of the bounded scan)'),
  scanned: z.number().int().describe('subscribed contacts evaluated'),
};
export const previewOutput = z.object({ ...evaluationFields, sample: z.array(sampleRow) });
export const countOutput = z.object({ _id: z.string(), ...evaluationFields });

export const subscribersQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  after: z.string().max(4000).optional(),
});
export const subscribersOutput = z.object({ data: z.array(contactSchema), nextCursor: z.string().nullable() });

export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });
