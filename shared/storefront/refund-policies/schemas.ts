import * as z from 'zod';
import { testMode } from '../schemas';

// ---- refund policies ----
export const createRefundPolicyBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    days: z.number().int('must be a whole number').min(0).max(3650),
    description: z.string().trim().max(5000).optional(),
    text: z.string().trim().max(5000).optional(),
  })
  .refine((b) => !(b.description !== undefined && b.text !== undefined && b.description !== b.text), {
    message: 'give description or text, not two different values',
    path: ['text'],
  });
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
