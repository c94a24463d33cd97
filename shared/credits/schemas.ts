import * as z from '../platform/zod';

/** A credit account as the API shows it (output schema; extra fields pass through). */
export const creditAccountSchema = z.looseObject({
  _id: z.string(),
  productId: z.string(),
  buyerEmail: z.string(),
  balanceCents: z.number().check(z.int()),
  status: z.enum(['active', 'paused']),
});

export const deductBody = z.object({
  productId: z.string().check(z.minLength(1), z.maxLength(64)),
  email: z.optional(z.string().check(z.trim(), z.email('email must be a valid email address'))),
  customerId: z.optional(z.string().check(z.maxLength(64))),
  amountCents: z.number().check(z.int('amountCents is an integer'), z.positive('amountCents must be positive')),
  reason: z.optional(z.string().check(z.maxLength(200))),
});
export type DeductInput = z.infer<typeof deductBody>;

export const deductAnswer = z.object({
  account: creditAccountSchema,
  deductedCents: z.number().check(z.int()),
  balanceCents: z.number().check(z.int()),
  autoRefill: z.object({ attempted: z.boolean(), succeeded: z.boolean() }),
});

export const listAccountsQuery = z.object({ email: z.optional(z.string().check(z.maxLength(320))), productId: z.optional(z.string().check(z.maxLength(64))) });

/** What the buyer's balance link answers an API client (the page shows the same). */
export const balanceViewSchema = z.object({
  productName: z.string(),
  balanceCents: z.number().check(z.int()),
  currency: z.string(),
  paused: z.boolean(),
  autoRefill: z.object({ enabled: z.boolean(), topOffCents: z.nullable(z.number().check(z.int())) }),
});
