import * as z from '../platform/zod';

const httpUrl = (field: string) =>
  z.string().check(
    z.maxLength(2048),
    z.refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
      } catch {
        return false;
      }
    }, `${field} must be an absolute http(s) URL`),
  );

/**
 * Metadata limits (as Stripe's): at most 50 keys of at most 40 characters, string values of at
 * most 500 characters, values nested at most 5 levels, 8 KB in all. They keep the record well
 * inside DynamoDB's item size and nesting limits, so oversize metadata is a 400, not a 500.
 */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500, depth: 5, totalBytes: 8192 } as const;

function metadataProblem(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string')
    return value.length > METADATA_LIMITS.valueLength ? `string values are at most ${METADATA_LIMITS.valueLength} characters` : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > METADATA_LIMITS.depth) return `values nest at most ${METADATA_LIMITS.depth} levels deep`;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length > METADATA_LIMITS.keys) return `at most ${METADATA_LIMITS.keys} keys (or items) per level`;
  for (const [key, inner] of entries) {
    if (!Array.isArray(value) && key.length > METADATA_LIMITS.keyLength) return `keys are at most ${METADATA_LIMITS.keyLength} characters`;
    const problem = metadataProblem(inner, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

export const metadataSchema = z.record(z.string(), z.unknown()).check(
  z.superRefine((value, ctx) => {
    const problem =
      metadataProblem(value, 1) ??
      (Buffer.byteLength(JSON.stringify(value)) > METADATA_LIMITS.totalBytes ? `at most ${METADATA_LIMITS.totalBytes} bytes in all` : undefined);
    if (problem) ctx.addIssue({ code: 'custom', message: `metadata: ${problem}` });
  }),
  z.describe('At most 50 keys of at most 40 characters, string values of at most 500 characters, 5 levels deep, 8 KB in all.'),
);

export const createSessionBody = z.object({
  productId: z.string().check(z.minLength(1, 'productId is required'), z.maxLength(64)),
  successUrl: httpUrl('successUrl'),
  cancelUrl: httpUrl('cancelUrl'),
  clientReferenceId: z.optional(z.string().check(z.maxLength(256, 'clientReferenceId is at most 256 characters'))),
  externalId: z.optional(z.string().check(z.maxLength(256, 'externalId is at most 256 characters'))),
  metadata: z.optional(metadataSchema),
  discountCode: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  referralCode: z.optional(z.string().check(z.minLength(1), z.maxLength(100))),
  customerEmail: z
    .optional(z.pipe(z.string().check(z.trim(), z.maxLength(320)), z.email('customerEmail must be an email address')))
    .check(
      z.describe(
        "The buyer's address when you know it: prefilled on the hosted page, and where an abandoned-checkout mail goes (PUT /checkout/recovery). A buy link's `?email=` sets the same field",
      ),
    ),
  amountCents: z
    .optional(
      z
        .number({ error: 'amountCents: must be an integer number of cents' })
        .check(
          z.int('amountCents: must be an integer number of cents'),
          z.minimum(0, 'amountCents: must be 0 or more'),
          z.maximum(100_000_000, 'amountCents: must be at most 100000000'),
        ),
    )
    .check(
      z.describe(
        "Pay what you want: the amount the buyer chose, in cents, at least the product's minimumPrice; refused for fixed-price products. The hosted page lets the buyer change it",
      ),
    ),
  quantity: z
    .optional(z.number({ error: 'quantity: must be an integer number of seats' }).check(z.int('quantity: must be an integer number of seats')))
    .check(z.describe("Seats, for offers sold per seat: within the offer's minimum and maximum; the minimum unless stated")),
});

export type CreateSessionInput = z.output<typeof createSessionBody>;

export const sessionAnswer = z.object({ id: z.string(), url: z.string() });

export const recoveryBody = z.strictObject({
  enabled: z.boolean({ error: 'enabled: true or false' }),
  delayMinutes: z
    .number({ error: 'delayMinutes: a whole number of minutes from 30 to 2880' })
    .check(
      z.int('delayMinutes: a whole number of minutes from 30 to 2880'),
      z.minimum(30, 'delayMinutes: at least 30 minutes'),
      z.maximum(2880, 'delayMinutes: at most 2880 minutes (2 days)'),
    ),
  discountCode: z
    .optional(z.nullable(z.string().check(z.trim(), z.minLength(1, 'discountCode cannot be empty; send null for none'), z.maxLength(100))))
    .check(z.describe('An existing discount code applied when the buyer comes back through the mail (when it applies to the product)')),
});

export const recoveryAnswer = z.object({
  enabled: z.boolean(),
  delayMinutes: z.number(),
  discountCode: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
});
