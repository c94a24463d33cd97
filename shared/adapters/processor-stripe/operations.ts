import * as z from 'zod';
import { defineOperation } from '../../platform/operation';
import { receiveStripeEvent } from './webhook';

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
    params: z.object({ accountId: z.string().min(1).max(64), mode: z.enum(['live', 'test']) }),
    body: z.object({ id: z.string().min(1).max(255), type: z.string().min(1).max(100) }).passthrough(),
    output: z.object({ received: z.literal(true), duplicate: z.boolean().optional(), ignored: z.boolean().optional() }),
    handler: async (ctx, { params }) => receiveStripeEvent(ctx, { accountId: params.accountId, mode: params.mode }, ctx.request),
  }),
];
