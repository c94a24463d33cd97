import * as z from 'zod';
import { badRequest } from '../../platform/errors';
import { defineOperation, rawReply, reply } from '../../platform/operation';
import type { Ports } from '../../platform/ports';
import { submitHostedCheckout } from './hosted-checkout';
import { checkoutPage, notFoundPage } from './page';
import { SandboxProcessor } from './sandbox';

const html = (status: number, body: string) => rawReply(status, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });

const sandboxOf = (ports: Ports) => {
  if (!(ports.processorSandbox instanceof SandboxProcessor)) throw badRequest('The hosted checkout page belongs to the sandbox processor');
  return ports.processorSandbox;
};

const checkoutParams = z.object({ checkoutId: z.string().min(1).max(64) });

/** The sandbox's hosted checkout page and its form post (public HTML routes). */
export const sandboxOperations = [
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
      const outcome = await submitHostedCheckout(ctx, sandboxOf(ctx.ports), params.checkoutId, body);
      return outcome.kind === 'redirect' ? reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store' }) : html(outcome.status, outcome.html);
    },
  }),
];
