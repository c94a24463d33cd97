import * as z from '../../platform/zod';
import { defineOperation } from '../../platform/operation';

export const stripeOperations = [
  defineOperation({
    operationId: 'receiveStripeEvent',
    summary: 'Stripe webhook endpoint of one account and mode',
    description:
      'Stripe posts its events here (set up in the Stripe dashboard; see the Stripe adapter README). Verifies `Stripe-Signature` with the signing secret stored for this account and mode, applies each event once (de-duplicated on the Stripe event id) and acknowledges the event types it does not act on.',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/stripe/webhooks/{accountId}/{mode}',
    auth: 'processor',
    unmetered: true,
    params: z.object({ accountId: z.string().check(z.minLength(1), z.maxLength(64)), mode: z.enum(['live', 'test']) }),
    body: z.looseObject({ id: z.string().check(z.minLength(1), z.maxLength(255)), type: z.string().check(z.minLength(1), z.maxLength(100)) }),
    output: z.object({ received: z.literal(true), duplicate: z.optional(z.boolean()), ignored: z.optional(z.boolean()) }),
    // The SDK (its signature check) loads with the route's first event, outside the cold import.
    handler: async (ctx, { params }) => (await import('./webhook')).receiveStripeEvent(ctx, { accountId: params.accountId, mode: params.mode }, ctx.request),
  }),
];
