import * as z from '../platform/zod';
import { once } from '../platform/once';

/**
 * The email operations' schemas, built on the first request that needs one (platform/once.ts):
 * the function's cold import builds none. Operations reach them through getters (operations.ts).
 */
export const emailSchemas = once(() => {
  const settingsSchema = z.object({
    senderEmail: z.nullable(z.string()),
    fromName: z.nullable(z.string()),
    replyTo: z.nullable(z.string()),
    physicalAddress: z.nullable(z.string()),
    footerText: z.nullable(z.string()),
    senderVerified: z.boolean(),
    verificationStatus: z.string(),
    totalEmailsSent: z.number().check(z.int()),
    checkoutOptIn: z
      .enum(['off', 'unchecked', 'checked'])
      .check(
        z.describe('The newsletter opt-in box on the hosted checkout: not shown, shown unticked, or shown ticked (the seller answers for a pre-ticked box)'),
      ),
    checkoutOptInWording: z.string().check(z.describe('The words beside the box; recorded with each consent')),
    saleNotifications: z.boolean().check(z.describe('A mail to the store owner for every paid order')),
  });

  const settingsBody = z.strictObject({
    senderEmail: z.optional(z.string().check(z.trim(), z.email())),
    fromName: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))),
    replyTo: z.optional(z.nullable(z.string().check(z.trim(), z.email()))),
    physicalAddress: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(5), z.maxLength(500)))),
    footerText: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(1000)))),
    checkoutOptIn: z.optional(z.enum(['off', 'unchecked', 'checked'], { error: 'checkoutOptIn is one of off, unchecked, checked' })),
    checkoutOptInWording: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(5), z.maxLength(200)))),
    saleNotifications: z.optional(z.boolean()),
  });

  // Recipient checks (count, validity, de-duplication) are the service's, so each gets its own reason.
  const sendBody = z.object({
    to: z.union([z.string(), z.array(z.string()).check(z.minLength(1, 'At least one recipient is required'))], {
      error: 'to is required: one address or 1 to 100 addresses',
    }),
    subject: z.string({ error: 'subject is required' }).check(z.trim(), z.minLength(1, 'subject is required'), z.maxLength(998)),
    html: z.optional(z.string().check(z.maxLength(500_000))),
    text: z.optional(z.string().check(z.maxLength(500_000))),
    fromName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    replyTo: z.optional(z.string().check(z.trim(), z.email('replyTo must be an email address'))),
    preview: z.optional(z.string().check(z.maxLength(500))),
  });

  const sendOutput = z.object({ id: z.string(), accepted: z.array(z.string()), status: z.literal('sent') });

  const audienceSchema = z.union([
    z.object({ type: z.literal('all') }),
    z.object({ type: z.literal('tag'), tag: z.string() }),
    z.object({ type: z.literal('segment'), segmentId: z.string() }),
  ]);

  const postSchema = z.object({
    _id: z.string(),
    subject: z.string(),
    html: z.nullable(z.string()),
    text: z.nullable(z.string()),
    preview: z.nullable(z.string()),
    fromName: z.nullable(z.string()),
    replyTo: z.nullable(z.string()),
    audience: audienceSchema,
    tag: z.nullable(z.string()),
    segmentId: z.nullable(z.string()),
    source: z.string(),
    status: z.enum(['draft', 'scheduled', 'sending', 'sent', 'failed']),
    sendAt: z.nullable(z.string()),
    failureReason: z.nullable(z.string()),
    sent: z.number().check(z.int()),
    opened: z.number().check(z.int()),
    clicked: z.number().check(z.int()),
    startedAt: z.nullable(z.string()),
    sentAt: z.nullable(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  });

  const postFields = {
    subject: z.string().check(z.trim(), z.minLength(1), z.maxLength(998)),
    html: z.nullable(z.string().check(z.maxLength(500_000))),
    text: z.nullable(z.string().check(z.maxLength(500_000))),
    preview: z.nullable(z.string().check(z.maxLength(500))),
    fromName: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    replyTo: z.nullable(z.string().check(z.trim(), z.email())),
    tag: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    segmentId: z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  };

  const postCreateBody = z
    .partial(z.object({ ...postFields, subject: postFields.subject }), {
      html: true,
      text: true,
      preview: true,
      fromName: true,
      replyTo: true,
      tag: true,
      segmentId: true,
    })
    .check(z.refine((b) => !(b.tag && b.segmentId), { message: 'Give a tag or a segmentId, not both', path: ['segmentId'] }));

  const postUpdateBody = z
    .partial(z.strictObject(postFields))
    .check(z.refine((b) => !(b.tag && b.segmentId), { message: 'Give a tag or a segmentId, not both', path: ['segmentId'] }));

  const scheduleBody = z.object({ sendAt: z.string().check(z.iso.datetime({ offset: true, message: 'sendAt must be an ISO 8601 date-time' })) });
  const idParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{24}$/, 'id must be a 24-hex post id')) });
  const tokenParams = z.object({ token: z.string().check(z.minLength(10), z.maxLength(4000)) });
  const listQuery = z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
    after: z.optional(z.string().check(z.maxLength(2000))),
  });
  const postPage = z.object({ data: z.array(postSchema), nextCursor: z.nullable(z.string()) });
  const postDeleted = z.object({ _id: z.string(), deleted: z.literal(true) });
  const engagementBody = z.optional(z.record(z.string(), z.unknown()));
  return {
    postPage,
    postDeleted,
    engagementBody,
    settingsSchema,
    settingsBody,
    sendBody,
    sendOutput,
    postSchema,
    postCreateBody,
    postUpdateBody,
    scheduleBody,
    idParams,
    tokenParams,
    listQuery,
  };
});

export type EmailSchemas = ReturnType<typeof emailSchemas>;
