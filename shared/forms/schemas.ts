import * as z from 'zod';
import { FORM_STATUSES, FORM_TYPES } from './records';

const text = (max: number) => z.string().trim().max(max);
const tag = z.string().trim().min(1).max(64);
const httpUrl = z
  .string()
  .trim()
  .url()
  .max(2000)
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) link');

export const triggerSchema = z
  .object({
    delaySeconds: z.number().int().min(0).max(120).default(0),
    scrollPercent: z.number().int().min(0).max(100).default(0),
    exitIntent: z.boolean().default(false),
  })
  .strict();

/** Fields shared by create and update (every one optional on update). */
const formFields = {
  type: z.enum(FORM_TYPES),
  headline: text(200),
  body: text(1000),
  buttonLabel: text(60),
  placeholder: text(100),
  collectName: z.boolean(),
  successHeadline: text(200),
  successMessage: text(1000),
  leadMagnetProductId: z.string().min(1).max(64).nullable(),
  leadMagnetUrl: httpUrl.nullable(),
  tags: z.array(tag).max(10, 'at most 10 tags'),
  doubleOptIn: z.boolean(),
  accentColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb'),
  position: z.enum(['bottom_right', 'bottom_left']),
  trigger: triggerSchema,
  frequencyDays: z.number().int().min(0).max(365),
};

export const formCreateBody = z
  .object({
    name: z.string().trim().min(1).max(80),
    status: z.enum(['active', 'paused']).optional(),
    ...Object.fromEntries(Object.entries(formFields).map(([k, s]) => [k, s.optional()])),
  })
  .strict() as z.ZodType<FormCreateInput>;

export interface FormCreateInput extends Partial<FormFieldValues> {
  name: string;
  status?: 'active' | 'paused';
}
type FormFieldValues = { [K in keyof typeof formFields]: z.output<(typeof formFields)[K]> };

export const formUpdateBody = z
  .object({
    name: z.string().trim().min(1).max(80).optional(),
    status: z.enum(FORM_STATUSES).optional(),
    ...Object.fromEntries(Object.entries(formFields).map(([k, s]) => [k, s.optional()])),
  })
  .strict() as z.ZodType<FormUpdateInput>;
export interface FormUpdateInput extends Partial<FormFieldValues> {
  name?: string;
  status?: (typeof FORM_STATUSES)[number];
}

export const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex form id') });
export const confirmParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/), token: z.string().regex(/^[A-Za-z0-9]{20,64}$/) });

const daySchema = z.object({ day: z.string(), views: z.number(), signups: z.number() });

export const formSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.enum(FORM_TYPES),
  status: z.enum(FORM_STATUSES),
  headline: z.string(),
  body: z.string(),
  buttonLabel: z.string(),
  placeholder: z.string(),
  collectName: z.boolean(),
  successHeadline: z.string(),
  successMessage: z.string(),
  leadMagnetProductId: z.string().nullable(),
  leadMagnetUrl: z.string().nullable(),
  tags: z.array(z.string()),
  doubleOptIn: z.boolean(),
  accentColor: z.string(),
  position: z.enum(['bottom_right', 'bottom_left']),
  trigger: z.object({ delaySeconds: z.number(), scrollPercent: z.number(), exitIntent: z.boolean() }),
  frequencyDays: z.number(),
  stats: z.object({ views: z.number(), signups: z.number(), conversionRate: z.number() }),
  embed: z.object({ script: z.string(), iframe: z.string(), preview: z.string() }),
  daily: z.array(daySchema).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

export const subscribeBody = z.object({
  email: z.string().trim().min(3).max(254),
  name: z.string().trim().max(100).nullish(),
  company: z.string().max(500).nullish(),
  elapsedMs: z.number().nonnegative().nullish(),
});
export type SubscribeInput = z.output<typeof subscribeBody>;

export const subscribeAnswer = z.union([
  z.object({ status: z.literal('subscribed'), leadMagnet: z.object({ name: z.string(), url: z.string().nullable() }).nullable() }),
  z.object({ status: z.literal('confirm_email') }),
]);

export const publicQuery = z.object({ preview: z.enum(['1']).optional() });
