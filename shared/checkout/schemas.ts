import * as z from 'zod';

const httpUrl = (field: string) =>
  z
    .string()
    .max(2048)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
      } catch {
        return false;
      }
    }, `${field} must be an absolute http(s) URL`);

export const createSessionBody = z
  .object({
    productId: z.string().min(1, 'productId is required').max(64),
    successUrl: httpUrl('successUrl'),
    cancelUrl: httpUrl('cancelUrl'),
    clientReferenceId: z.string().max(256, 'clientReferenceId is at most 256 characters').optional(),
    externalId: z.string().max(256, 'externalId is at most 256 characters').optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    discountCode: z.string().min(1).max(100).optional(),
    referralCode: z.string().min(1).max(100).optional(),
  });

export type CreateSessionInput = z.output<typeof createSessionBody>;

export const sessionAnswer = z.object({ id: z.string(), url: z.string() });
