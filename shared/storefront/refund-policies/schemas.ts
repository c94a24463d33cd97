import * as z from '../../platform/zod';
import { testMode } from '../schemas';

// ---- refund policies ----
export const createRefundPolicyBody = z
  .object({
    name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    days: z.number().check(z.int('must be a whole number'), z.minimum(0), z.maximum(3650)),
    description: z.optional(z.string().check(z.trim(), z.maxLength(5000))),
    text: z.optional(z.string().check(z.trim(), z.maxLength(5000))),
  })
  .check(
    z.refine((b) => !(b.description !== undefined && b.text !== undefined && b.description !== b.text), {
      message: 'give description or text, not two different values',
      path: ['text'],
    }),
  );
export const refundPolicySchema = z.object({
  _id: z.string(),
  name: z.string(),
  days: z.number(),
  description: z.string(),
  text: z.string(),
  appliedTo: z.number(),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
