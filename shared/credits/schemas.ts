import * as z from 'zod';

/** A credit account as the API shows it (output schema; extra fields pass through). */
export const creditAccountSchema = z.looseObject({ _id: z.string(), productId: z.string(), buyerEmail: z.string(), balanceCents: z.number().int(), status: z.enum(['active', 'paused']) });

export const deductBody = z.object({
  productId: z.string().min(1).max(64),
  email: z.string().trim().email('email must be a valid email address').optional(),
  customerId: z.string().max(64).optional(),
  amountCents: z.number().int('amountCents is an integer').positive('amountCents must be positive'),
  reason: z.string().max(200).optional(),
});
export type DeductInput = z.infer<typeof deductBody>;

export const deductAnswer = z.object({
  account: creditAccountSchema,
  deductedCents: z.number().int(),
  balanceCents: z.number().int(),
  autoRefill: z.object({ attempted: z.boolean(), succeeded: z.boolean() }),
});

export const listAccountsQuery = z.object({ email: z.string().max(320).optional(), productId: z.string().max(64).optional() });
