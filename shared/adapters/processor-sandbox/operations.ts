import * as z from '../../platform/zod';
import { publicBaseUrl } from '../../checkout/service';
import { badRequest } from '../../platform/errors';
import { defineOperation, rawReply, reply } from '../../platform/operation';
import type { Ports } from '../../platform/ports';
import { showHostedCheckout, showThankYou, submitHostedCheckout, type HostedCheckoutOutcome } from './hosted-checkout';
import { SandboxProcessor } from './sandbox';
import { showCardUpdate, submitCardUpdate } from './card-update';
import { parseMultipart } from '../../platform/http/multipart';

const answer = (outcome: HostedCheckoutOutcome) => {
  switch (outcome.kind) {
    case 'redirect':
      return reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    case 'missing':
      return rawReply(404, outcome.html, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });
    case 'page':
      return rawReply(outcome.status, outcome.page.html, 'text/html; charset=utf-8', outcome.page.headers);
  }
};

const sandboxOf = (ports: Ports) => {
  if (!(ports.processorSandbox instanceof SandboxProcessor)) throw badRequest('The hosted checkout page belongs to the sandbox processor');
  return ports.processorSandbox;
};

const checkoutParams = z.object({ checkoutId: z.string().check(z.minLength(1), z.maxLength(64)) });
const cardUpdateParams = z.object({ sessionId: z.string().check(z.minLength(1), z.maxLength(64)) });
/** `?lang=` picks the page's language (en, fr, de, es, pt-BR, ja); else the saved one, Accept-Language, the seller's default. */
const langQuery = z.object({ lang: z.optional(z.string().check(z.maxLength(35))) });
const language = (ctx: { request: { headers: Record<string, string> } }, query: { lang?: string }) => ({
  query: query.lang,
  acceptLanguage: ctx.request.headers['accept-language'],
});

/** The sandbox's hosted checkout page, its form post and the thank-you page (public HTML routes). */
export const sandboxOperations = [
  defineOperation({
    operationId: 'getSandboxCheckoutPage',
    summary: "The sandbox processor's hosted checkout page (HTML)",
    tags: ['Processor'],
    method: 'GET',
    path: '/processor/sandbox/checkout/{checkoutId}',
    auth: 'public',
    unmetered: true,
    params: checkoutParams,
    query: langQuery,
    handler: async (ctx, { params, query }) =>
      answer(await showHostedCheckout(ctx, sandboxOf(ctx.ports), params.checkoutId, publicBaseUrl(ctx), language(ctx, query))),
  }),
  defineOperation({
    operationId: 'paySandboxCheckout',
    summary: 'Form post of the sandbox hosted checkout: applies a discount code (intent=discount) or pays and redirects to the thank-you page',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/sandbox/checkout/{checkoutId}',
    auth: 'public',
    unmetered: true,
    params: checkoutParams,
    bodyType: 'json-or-multipart',
    multipart: parseMultipart,
    query: langQuery,
    body: z.record(z.string(), z.unknown()),
    handler: async (ctx, { params, body, query }) =>
      answer(await submitHostedCheckout(ctx, sandboxOf(ctx.ports), params.checkoutId, body, publicBaseUrl(ctx), language(ctx, query))),
  }),
  defineOperation({
    operationId: 'getSandboxThankYouPage',
    summary: 'The thank-you page after a sandbox payment (HTML): order summary, then on to successUrl with session_id',
    tags: ['Processor'],
    method: 'GET',
    path: '/processor/sandbox/checkout/{checkoutId}/thanks',
    auth: 'public',
    unmetered: true,
    params: checkoutParams,
    query: langQuery,
    handler: async (ctx, { params, query }) =>
      answer(await showThankYou(ctx, sandboxOf(ctx.ports), params.checkoutId, publicBaseUrl(ctx), language(ctx, query))),
  }),
  defineOperation({
    operationId: 'getSandboxCardUpdatePage',
    summary: "The sandbox processor's card-update page (HTML): the buyer enters a new card for a membership; the link works once, for an hour",
    tags: ['Processor'],
    method: 'GET',
    path: '/processor/sandbox/card-update/{sessionId}',
    auth: 'public',
    unmetered: true,
    params: cardUpdateParams,
    query: langQuery,
    handler: async (ctx, { params, query }) =>
      answer(await showCardUpdate(ctx, sandboxOf(ctx.ports), params.sessionId, publicBaseUrl(ctx), language(ctx, query))),
  }),
  defineOperation({
    operationId: 'submitSandboxCardUpdate',
    summary: 'Form post of the sandbox card-update page: saves the new card (a past-due membership is charged again with it)',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/sandbox/card-update/{sessionId}',
    auth: 'public',
    unmetered: true,
    params: cardUpdateParams,
    bodyType: 'json-or-multipart',
    multipart: parseMultipart,
    query: langQuery,
    body: z.record(z.string(), z.unknown()),
    handler: async (ctx, { params, body, query }) =>
      answer(await submitCardUpdate(ctx, sandboxOf(ctx.ports), params.sessionId, body, publicBaseUrl(ctx), language(ctx, query))),
  }),
];
