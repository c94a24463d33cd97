import * as z from 'zod';
import { badRequest } from '../platform/errors';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { receiveNotification } from './ingress';
import { checkoutPage, notFoundPage } from './page';
import { submitHostedCheckout } from './hosted-checkout';
import { SandboxProcessor } from './sandbox';
import type { Ports } from '../platform/ports';

const html = (status: number, body: string) => rawReply(status, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });

const sandboxOf = (ports: Ports) => {
  if (!(ports.processor instanceof SandboxProcessor)) throw badRequest('The hosted checkout page belongs to the sandbox processor');
  return ports.processor;
};

const checkoutParams = z.object({ checkoutId: z.string().min(1).max(64) });


const notificationBody = z.object({
  id: z.string().min(1).max(64),
  type: z.string().min(1).max(100),
  created: z.number().int(),
  accountId: z.string().min(1).max(64),
  mode: z.enum(['live', 'test']),
  data: z.record(z.string(), z.unknown()),
});

export const processorOperations = [
  defineOperation({
    operationId: 'getSandboxCheckoutPage',
    summary: 'The sandbox processor\'s hosted checkout page (HTML)',
    tags: ['Processor'],
    method: 'GET',
    path: '/processor/sandbox/checkout/{checkoutId}',
    auth: 'public',
    unmetered: true,
    params: checkoutParams,
    handler: async (ctx, { params }) => {
      const checkout = await sandboxOf(ctx.ports).getCheckout(params.checkoutId);
      return checkout ? html(200, checkoutPage(checkout)) : html(404, notFoundPage());
    },
  }),
  defineOperation({
    operationId: 'paySandboxCheckout',
    summary: 'Form post of the sandbox hosted checkout: pays and redirects to successUrl',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/sandbox/checkout/{checkoutId}',
    auth: 'public',
    unmetered: true,
    params: checkoutParams,
    bodyType: 'json-or-multipart',
    body: z.record(z.string(), z.unknown()),
    handler: async (ctx, { params, body }) => {
      const outcome = await submitHostedCheckout(sandboxOf(ctx.ports), params.checkoutId, body);
      return outcome.kind === 'redirect' ? reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store' }) : html(outcome.status, outcome.html);
    },
  }),
  defineOperation({
    operationId: 'receiveProcessorNotification',
    summary: 'Processor ingress: signed notifications from the payment processor',
    description: 'Verifies the `X-Processor-Signature` header (t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">), applies each notification once (idempotent on its id) and acknowledges unknown types.',
    tags: ['Processor'],
    method: 'POST',
    path: '/processor/notifications',
    auth: 'processor',
    unmetered: true,
    body: notificationBody,
    output: z.object({ received: z.literal(true), duplicate: z.boolean().optional(), ignored: z.boolean().optional() }),
    handler: async (ctx, { body }) => receiveNotification(ctx, ctx.request, body),
  }),
];
