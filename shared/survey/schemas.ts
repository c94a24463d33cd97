import * as z from 'zod';
import { CHANNELS, LIMITS } from './rules';

const optionSchema = z.object({ id: z.string(), label: z.string(), channel: z.enum(CHANNELS).nullable() });

export const settingsSchema = z.object({
  enabled: z.boolean(),
  question: z.string(),
  options: z.array(optionSchema),
  allowOther: z.boolean(),
  updatedAt: z.string().nullable(),
});

export const settingsBody = z
  .object({
    enabled: z.boolean().optional().describe('Turning it on needs Growth; off stays open'),
    question: z.string().max(LIMITS.question).optional(),
    options: z
      .array(
        z.object({
          id: z.string().max(64).optional().describe('An existing option id: keeps its past answers after a rename. Leave out for a new option'),
          label: z.string().max(LIMITS.label),
          channel: z.enum(CHANNELS).nullable().optional(),
        }),
      )
      .min(LIMITS.minOptions)
      .max(LIMITS.maxOptions)
      .optional(),
    allowOther: z.boolean().optional().describe('Adds a free-text answer'),
  })
  .strict();

export const reportQuery = z.object({
  startDate: z.string().optional().describe('YYYY-MM-DD (UTC); default 30 days before endDate'),
  endDate: z.string().optional().describe('YYYY-MM-DD (UTC); default today; at most 366 days after startDate'),
});

const money = z.number().describe('In the account currency');

export const reportSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  currency: z.string(),
  totals: z.object({ shown: z.number(), answered: z.number(), responseRate: z.number(), revenue: money }),
  options: z.array(z.object({ id: z.string(), label: z.string(), channel: z.enum(CHANNELS).nullable(), answers: z.number(), share: z.number(), revenue: money })),
  other: z.object({ answers: z.number(), share: z.number(), revenue: money, topAnswers: z.array(z.object({ answer: z.string(), count: z.number() })) }),
  trackedLinks: z.object({
    locked: z.boolean(),
    channels: z.array(z.object({ channel: z.enum(CHANNELS), clicks: z.number(), visitors: z.number(), sales: z.number(), revenue: money })),
  }),
});

export const tokenParams = z.object({ token: z.string().min(1).max(128) });
export const answerBody = z.object({ answer: z.coerce.string().max(64), otherText: z.coerce.string().max(1000).optional() });
