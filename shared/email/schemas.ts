import * as z from 'zod';

export const settingsSchema = z.object({
  senderEmail: z.string().nullable(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  physicalAddress: z.string().nullable(),
  footerText: z.string().nullable(),
  senderVerified: z.boolean(),
  verificationStatus: z.string(),
  totalEmailsSent: z.number().int(),
});

export const settingsBody = z
  .object({
    senderEmail: z.string().trim().email().optional(),
    fromName: z.string().trim().min(1).max(100).nullable().optional(),
    replyTo: z.string().trim().email().nullable().optional(),
    physicalAddress: z.string().trim().min(5).max(500).nullable().optional(),
    footerText: z.string().trim().max(1000).nullable().optional(),
  })
  .strict();

// Recipient checks (count, validity, de-duplication) are the service's, so each gets its own reason.
export const sendBody = z.object({
  to: z.union([z.string(), z.array(z.string()).min(1, 'At least one recipient is required')], { error: 'to is required: one address or 1 to 100 addresses' }),
  subject: z.string({ error: 'subject is required' }).trim().min(1, 'subject is required').max(998),
  html: z.string().max(500_000).optional(),
  text: z.string().max(500_000).optional(),
  fromName: z.string().trim().min(1).max(100).optional(),
  replyTo: z.string().trim().email('replyTo must be an email address').optional(),
  preview: z.string().max(500).optional(),
});

export const sendOutput = z.object({ id: z.string(), accepted: z.array(z.string()), status: z.literal('sent') });

const audienceSchema = z.union([
  z.object({ type: z.literal('all') }),
  z.object({ type: z.literal('tag'), tag: z.string() }),
  z.object({ type: z.literal('segment'), segmentId: z.string() }),
]);

export const postSchema = z.object({
  _id: z.string(),
  subject: z.string(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  preview: z.string().nullable(),
  fromName: z.string().nullable(),
  replyTo: z.string().nullable(),
  audience: audienceSchema,
  tag: z.string().nullable(),
  segmentId: z.string().nullable(),
  source: z.string(),
  status: z.enum(['draft', 'scheduled', 'sending', 'sent', 'failed']),
  sendAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  startedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

const postFields = {
  subject: z.string().trim().min(1).max(998),
  html: z.string().max(500_000).nullable(),
  text: z.string().max(500_000).nullable(),
  preview: z.string().max(500).nullable(),
  fromName: z.string().trim().min(1).max(100).nullable(),
  replyTo: z.string().trim().email().nullable(),
  tag: z.string().trim().min(1).max(100).nullable(),
  segmentId: z.string().trim().min(1).max(100).nullable(),
};

export const postCreateBody = z
  .object({ ...postFields, subject: postFields.subject })
  .partial({ html: true, text: true, preview: true, fromName: true, replyTo: true, tag: true, segmentId: true })
  .refine((b) => !(b.tag && b.segmentId), { message: 'Give a tag or a segmentId, not both', path: ['segmentId'] });

export const postUpdateBody = z
  .object(postFields)
  .partial()
  .strict()
  .refine((b) => !(b.tag && b.segmentId), { message: 'Give a tag or a segmentId, not both', path: ['segmentId'] });

export const scheduleBody = z.object({ sendAt: z.string().datetime({ offset: true, message: 'sendAt must be an ISO 8601 date-time' }) });
export const idParams = z.object({ id: z.string().regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex post id') });
export const tokenParams = z.object({ token: z.string().min(10).max(4000) });
export const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20), after: z.string().max(2000).optional() });
