import * as z from 'zod';
import { discountCode } from '../storefront/discounts/schemas';

const httpUrl = z
  .string()
  .trim()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) link');

export const funnelCreateBody = z.object({
  templateId: z.enum(['welcome', 'minicourse', 'launch']),
  leadMagnetProductId: z.string().min(1).max(64),
  offerProductId: z.string().min(1).max(64),
  offerUrl: httpUrl,
  discount: z
    .object({
      code: discountCode,
      valueType: z.enum(['percentage', 'fixed']).default('percentage'),
      value: z.number().positive().max(1_000_000),
      expiresAt: z.string().datetime({ offset: true }).nullable().optional(),
    })
    .optional(),
  name: z.string().trim().min(1).max(200).optional(),
});
export type FunnelCreateInput = z.output<typeof funnelCreateBody>;

export const funnelRenameBody = z.object({ name: z.string().trim().min(1).max(200) });
export const idParams = z.object({ id: z.string().min(1).max(64) });

export const funnelSchema = z.object({
  _id: z.string(),
  name: z.string(),
  templateId: z.string(),
  status: z.enum(['draft', 'active', 'paused']),
  leadMagnetProductId: z.string(),
  offerProductId: z.string(),
  offerUrl: z.string(),
  discountCode: z.string().nullable(),
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
  emails: z.array(z.object({ postId: z.string(), subject: z.string().nullable(), sent: z.number(), opened: z.number(), clicked: z.number() })),
  attributionWindowDays: z.number(),
});
