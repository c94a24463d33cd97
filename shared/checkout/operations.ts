import * as z from '../platform/zod';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { openBuyLink } from './buy-link';
import { createSessionBody, sessionAnswer } from './schemas';
import { createCheckoutSession, publicBaseUrl } from './service';

const linkText = (max: number) => z.optional(z.string().check(z.maxLength(max, `at most ${max} characters`)));

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
  defineOperation({
    operationId: 'openBuyLink',
    summary: "A product's public buy link: opens a new hosted checkout and redirects to it (303)",
    description:
      'Put it in a bio, a post or a button. `discount` applies a code, `amount` sets a pay-what-you-want price, `email` fills in the buyer, `ref` credits a partner, `quantity` (offers sold per seat). Link previews and prefetches see the product and open no checkout; an address opens at most a few checkouts a minute; unpaid checkouts opened here expire after a day.',
    tags: ['Checkout'],
    method: 'GET',
    path: '/buy/{productId}',
    auth: 'public',
    unmetered: true,
    params: z.object({ productId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({ discount: linkText(100), email: linkText(320), quantity: linkText(10), ref: linkText(100), amount: linkText(20) }),
    handler: async (ctx, { params, query }) => {
      const outcome = await openBuyLink(ctx, ctx.request, params.productId, query, publicBaseUrl(ctx));
      if (outcome.kind === 'redirect') return reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' });
      return rawReply(outcome.status, outcome.html, 'text/html; charset=utf-8', outcome.headers);
    },
  }),
];
