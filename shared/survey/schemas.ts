import * as z from '../platform/zod';
import { CHANNELS, LIMITS } from './rules';

const optionSchema = z.object({ id: z.string(), label: z.string(), channel: z.nullable(z.enum(CHANNELS)) });

export const settingsSchema = z.object({
  enabled: z.boolean(),
  question: z.string(),
  options: z.array(optionSchema),
  allowOther: z.boolean(),
  updatedAt: z.nullable(z.string()),
});

export const settingsBody = z.strictObject({
  enabled: z.optional(z.boolean()).check(z.describe('Turning it on needs Growth; off stays open')),
  question: z.optional(z.string().check(z.maxLength(LIMITS.question))),
  options: z.optional(
    z
      .array(
        z.object({
          id: z
            .optional(z.string().check(z.maxLength(64)))
            .check(z.describe('An existing option id: keeps its past answers after a rename. Leave out for a new option')),
          label: z.string().check(z.maxLength(LIMITS.label)),
          channel: z.optional(z.nullable(z.enum(CHANNELS))),
        }),
      )
      .check(z.minLength(LIMITS.minOptions), z.maxLength(LIMITS.maxOptions)),
  ),
  allowOther: z.optional(z.boolean()).check(z.describe('Adds a free-text answer')),
});

export const reportQuery = z.object({
  startDate: z.optional(z.string()).check(z.describe('YYYY-MM-DD (UTC); default 30 days before endDate')),
  endDate: z.optional(z.string()).check(z.describe('YYYY-MM-DD (UTC); default today; at most 366 days after startDate')),
});

const money = z.number().check(z.describe('In the account currency'));

export const reportSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  currency: z.string(),
  totals: z.object({ shown: z.number(), answered: z.number(), responseRate: z.number(), revenue: money }),
  options: z.array(
    z.object({ id: z.string(), label: z.string(), channel: z.nullable(z.enum(CHANNELS)), answers: z.number(), share: z.number(), revenue: money }),
  ),
  other: z.object({ answers: z.number(), share: z.number(), revenue: money, topAnswers: z.array(z.object({ answer: z.string(), count: z.number() })) }),
  trackedLinks: z.object({
    locked: z.boolean(),
    channels: z.array(z.object({ channel: z.enum(CHANNELS), clicks: z.number(), visitors: z.number(), sales: z.number(), revenue: money })),
  }),
});

export const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(128)) });
export const answerBody = z.object({ answer: z.coerce.string().check(z.maxLength(64)), otherText: z.optional(z.coerce.string().check(z.maxLength(1000))) });
