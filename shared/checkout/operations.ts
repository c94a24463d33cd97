import { defineOperation } from '../platform/operation';
import { createSessionBody, sessionAnswer } from './schemas';
import { createCheckoutSession } from './service';

export const checkoutOperations = [
  defineOperation({
    operationId: 'createCheckoutSession',
    tool: 'create_checkout_session',
    summary: 'Open a hosted checkout for a product or a subscription offer',
    description: 'Answers 201 with `{ id, url }`; redirect the buyer to `url`. `metadata` and `clientReferenceId` (or `externalId`) are replayed on every later event of the purchase.',
    tags: ['Checkout'],
    method: 'POST',
    path: '/checkout/sessions',
    auth: 'key',
    body: createSessionBody,
    output: sessionAnswer,
    status: 201,
    handler: (ctx, { body }) => createCheckoutSession(ctx, body),
  }),
];
