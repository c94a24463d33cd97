import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { receiveNotification } from './ingress';

const notificationBody = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  type: z.string().check(z.minLength(1), z.maxLength(100)),
  created: z.number().check(z.int()),
  accountId: z.string().check(z.minLength(1), z.maxLength(64)),
  mode: z.enum(['live', 'test']),
  data: z.record(z.string(), z.unknown()),
});

export const processorOperations = [
  defineOperation({
    operationId: 'receiveProcessorNotification',
    summary: 'Processor ingress: signed notifications from the payment processor',
    description:
      'Verifies the `X-Processor-Signature` header (t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">), applies each notification once (idempotent on its id) and acknowledges unknown types.',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/notifications',
    auth: 'processor',
    unmetered: true,
    body: notificationBody,
    output: z.object({ received: z.literal(true), duplicate: z.optional(z.boolean()), ignored: z.optional(z.boolean()) }),
    handler: async (ctx, { body }) => receiveNotification(ctx, ctx.request, body),
  }),
];
