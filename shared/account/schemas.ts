import * as z from '../platform/zod';
import { planSchema } from '../platform/plans';
import { LOCALES } from '../platform/i18n/locales';

export const accountSchema = z.object({
  _id: z.string(),
  email: z.string(),
  name: z.nullable(z.string()),
  plan: planSchema,
  currency: z.string(),
  mode: z.enum(['live', 'test']),
  testMode: z.boolean(),
  createdAt: z.string(),
  /** The payment processor each mode uses (`none`: live mode of a deployed stack without one). */
  processors: z.object({ live: z.enum(['sandbox', 'stripe', 'none']), test: z.enum(['sandbox', 'stripe', 'none']) }),
});

export const brandingSchema = z.object({
  displayName: z.nullable(z.string()),
  logoImageId: z.nullable(z.string()),
  accentColor: z.nullable(z.string()),
  supportEmail: z.nullable(z.string()),
  locale: z.nullable(z.enum(LOCALES)).check(z.describe('Default language of buyer pages and mails when the buyer has none: en, fr, de, es, pt-BR or ja')),
  legalName: z.nullable(z.string()),
  legalAddress: z.nullable(z.string()),
  taxId: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
});

export const brandingBody = z
  .strictObject({
    displayName: z.optional(
      z.nullable(z.string().check(z.trim(), z.minLength(1, 'displayName cannot be empty'), z.maxLength(80, 'displayName is at most 80 characters'))),
    ),
    logoImageId: z.optional(z.nullable(z.string().check(z.regex(/^[0-9a-f]{24}$/, 'logoImageId is the 24-hex _id of an uploaded image')))),
    accentColor: z.optional(z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'accentColor is a #rrggbb colour')))),
    supportEmail: z.optional(z.nullable(z.pipe(z.string().check(z.trim(), z.maxLength(320)), z.email('supportEmail must be an email address')))),
    legalName: z.optional(
      z.nullable(z.string().check(z.trim(), z.minLength(1, 'legalName cannot be empty'), z.maxLength(200, 'legalName is at most 200 characters'))),
    ),
    legalAddress: z.optional(
      z.nullable(z.string().check(z.trim(), z.minLength(1, 'legalAddress cannot be empty'), z.maxLength(500, 'legalAddress is at most 500 characters'))),
    ),
    taxId: z.optional(
      z.nullable(z.string().check(z.trim(), z.regex(/^[A-Za-z0-9 .\-/]{2,40}$/, 'taxId is 2 to 40 letters, digits, spaces, dots, dashes or slashes'))),
    ),
    locale: z.optional(z.nullable(z.enum(LOCALES, { error: `locale is one of ${LOCALES.join(', ')}` }))),
  })
  .check(
    z.refine(
      (b) => Object.keys(b).length > 0,
      'Send at least one of displayName, logoImageId, accentColor, supportEmail, legalName, legalAddress, taxId, locale',
    ),
  );
