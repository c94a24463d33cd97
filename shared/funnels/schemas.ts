import * as z from '../platform/zod';
import { discountCode } from '../storefront/discounts/schemas';

const httpUrl = z.string().check(
  z.trim(),
  z.url(),
  z.maxLength(2000),
  z.refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) link'),
);

export const funnelCreateBody = z.object({
  templateId: z.enum(['welcome', 'minicourse', 'launch']),
  leadMagnetProductId: z.string().check(z.minLength(1), z.maxLength(64)),
  offerProductId: z.string().check(z.minLength(1), z.maxLength(64)),
  offerUrl: httpUrl,
  discount: z.optional(
    z.object({
      code: discountCode,
      valueType: z._default(z.enum(['percentage', 'fixed']), 'percentage'),
      value: z.number().check(z.positive(), z.maximum(1_000_000)),
      expiresAt: z.optional(z.nullable(z.string().check(z.iso.datetime({ offset: true })))),
    }),
  ),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});
export type FunnelCreateInput = z.output<typeof funnelCreateBody>;

export const funnelRenameBody = z.object({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)) });
export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

export const funnelSchema = z.object({
  _id: z.string(),
  name: z.string(),
  templateId: z.string(),
  status: z.enum(['draft', 'active', 'paused']),
  leadMagnetProductId: z.string(),
  offerProductId: z.string(),
  offerUrl: z.string(),
  discountCode: z.nullable(z.string()),
  automationId: z.string(),
  emailPostIds: z.array(z.string()),
  tag: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const templateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  emails: z.array(z.object({ delayHours: z.number(), subject: z.string() })),
});

export const statsSchema = z.object({
  totals: z.object({
    leads: z.number(),
    emailsSent: z.number(),
    opens: z.number(),
    clicks: z.number(),
    purchases: z.number(),
    buyers: z.number(),
    revenue: z.number(),
    conversionRate: z.number(),
    currency: z.string(),
  }),
  stages: z.object({ leads: z.number(), opened: z.number(), clicked: z.number(), bought: z.number() }),
  emails: z.array(z.object({ postId: z.string(), subject: z.nullable(z.string()), sent: z.number(), opened: z.number(), clicked: z.number() })),
  attributionWindowDays: z.number(),
});
