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

export const brandingSchema = z.object({
  displayName: z.string().nullable(),
  logoImageId: z.string().nullable(),
  accentColor: z.string().nullable(),
  supportEmail: z.string().nullable(),
  updatedAt: z.string().nullable(),
});

export const brandingBody = z
  .strictObject({
    displayName: z.string().trim().min(1, 'displayName cannot be empty').max(80, 'displayName is at most 80 characters').nullable().optional(),
    logoImageId: z.string().regex(/^[0-9a-f]{24}$/, 'logoImageId is the 24-hex _id of an uploaded image').nullable().optional(),
    accentColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'accentColor is a #rrggbb colour').nullable().optional(),
    supportEmail: z.string().trim().max(320).pipe(z.email('supportEmail must be an email address')).nullable().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, 'Send at least one of displayName, logoImageId, accentColor, supportEmail');
