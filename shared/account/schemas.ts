import * as z from 'zod';
import { planSchema } from '../platform/plans';

export const accountSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  plan: planSchema,
  currency: z.string(),
  mode: z.enum(['live', 'test']),
  testMode: z.boolean(),
  createdAt: z.string(),
  /** The payment processor each mode uses (`none`: live mode of a deployed stack without one). */
  processors: z.object({ live: z.enum(['sandbox', 'stripe', 'none']), test: z.enum(['sandbox', 'stripe', 'none']) }),
});
