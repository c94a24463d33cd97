import * as z from '../platform/zod';
import { FORM_STATUSES, FORM_TYPES } from './records';

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const tag = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));
const httpUrl = z.string().check(
  z.trim(),
  z.url(),
  z.maxLength(2000),
  z.refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) link'),
);

export const triggerSchema = z.strictObject({
  delaySeconds: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(120)), 0),
  scrollPercent: z._default(z.number().check(z.int(), z.minimum(0), z.maximum(100)), 0),
  exitIntent: z._default(z.boolean(), false),
});

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
  leadMagnetProductId: z.nullable(z.string().check(z.minLength(1), z.maxLength(64))),
  leadMagnetUrl: z.nullable(httpUrl),
  tags: z.array(tag).check(z.maxLength(10, 'at most 10 tags')),
  doubleOptIn: z.boolean(),
  accentColor: z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'must be #rrggbb')),
  position: z.enum(['bottom_right', 'bottom_left']),
  trigger: triggerSchema,
  frequencyDays: z.number().check(z.int(), z.minimum(0), z.maximum(365)),
};

export const formCreateBody = z.strictObject({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(80)),
  status: z.optional(z.enum(['active', 'paused'])),
  ...Object.fromEntries(Object.entries(formFields).map(([k, s]) => [k, z.optional(s)])),
}) as z.ZodMiniType<FormCreateInput>;

export interface FormCreateInput extends Partial<FormFieldValues> {
  name: string;
  status?: 'active' | 'paused';
}
type FormFieldValues = { [K in keyof typeof formFields]: z.output<(typeof formFields)[K]> };

export const formUpdateBody = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(80))),
  status: z.optional(z.enum(FORM_STATUSES)),
  ...Object.fromEntries(Object.entries(formFields).map(([k, s]) => [k, z.optional(s)])),
}) as z.ZodMiniType<FormUpdateInput>;
export interface FormUpdateInput extends Partial<FormFieldValues> {
  name?: string;
  status?: (typeof FORM_STATUSES)[number];
}

export const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex form id')) });
export const confirmParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/)), token: z.string().check(z.regex(/^[A-Za-z0-9]{20,64}$/)) });

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
  leadMagnetProductId: z.nullable(z.string()),
  leadMagnetUrl: z.nullable(z.string()),
  tags: z.array(z.string()),
  doubleOptIn: z.boolean(),
  accentColor: z.string(),
  position: z.enum(['bottom_right', 'bottom_left']),
  trigger: z.object({ delaySeconds: z.number(), scrollPercent: z.number(), exitIntent: z.boolean() }),
  frequencyDays: z.number(),
  stats: z.object({ views: z.number(), signups: z.number(), conversionRate: z.number() }),
  embed: z.object({ script: z.string(), iframe: z.string(), preview: z.string() }),
  daily: z.optional(z.array(daySchema)),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const deletedSchema = z.object({ _id: z.string(), deleted: z.literal(true) });

export const subscribeBody = z.object({
  email: z.string().check(z.trim(), z.minLength(3), z.maxLength(254)),
  name: z.nullish(z.string().check(z.trim(), z.maxLength(100))),
  company: z.nullish(z.string().check(z.maxLength(500))),
  elapsedMs: z.nullish(z.number().check(z.nonnegative())),
});
export type SubscribeInput = z.output<typeof subscribeBody>;

export const subscribeAnswer = z.union([
  z.object({ status: z.literal('subscribed'), leadMagnet: z.nullable(z.object({ name: z.string(), url: z.nullable(z.string()) })) }),
  z.object({ status: z.literal('confirm_email') }),
]);

export const publicQuery = z.object({ preview: z.optional(z.enum(['1'])) });
