import { z } from 'zod';
import { badRequest } from '../platform/errors';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { receiveNotification } from './ingress';
import { checkoutPage, notFoundPage } from './page';
import { ProcessorError } from './port';
import { SandboxProcessor } from './sandbox';
import type { Ports } from '../adapters/ports';

const html = (status: number, body: string) => rawReply(status, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });

const sandboxOf = (ports: Ports) => {
  if (!(ports.processor instanceof SandboxProcessor)) throw badRequest('The hosted checkout page belongs to the sandbox processor');
  return ports.processor;
};

const checkoutParams = z.object({ checkoutId: z.string().min(1).max(64) });

const payForm = z.object({
  email: z.coerce.string().trim().pipe(z.string().email('Enter a valid email address')),
  // The form decoder turns digit-only fields into numbers; a card number is text.
  firstName: z.coerce.string().trim().max(100).optional(),
  lastName: z.coerce.string().trim().max(100).optional(),
  country: z.coerce.string().trim().max(2, 'Country is a 2-letter code').optional(),
  cardNumber: z.coerce.string().trim().max(40).optional(),
  saveCard: z.union([z.boolean(), z.string()]).optional(),
});

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
      const sandbox = sandboxOf(ctx.ports);
      const checkout = await sandbox.getCheckout(params.checkoutId);
      if (!checkout) return html(404, notFoundPage());
      const values = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
      const form = payForm.safeParse(body);
      if (!form.success) return html(400, checkoutPage(checkout, { error: form.error.issues[0]!.message, values }));
      const buyer = { email: form.data.email, firstName: form.data.firstName || undefined, lastName: form.data.lastName || undefined, country: form.data.country?.toUpperCase() || undefined };
      try {
        const result =
          checkout.amountCents === 0
            ? await sandbox.completeFreeCheckout(checkout.id, buyer)
            : await sandbox.payCheckout(checkout.id, { buyer, cardNumber: form.data.cardNumber, saveCard: form.data.saveCard === true || form.data.saveCard === 'true' || form.data.saveCard === 'on' });
        if (result.status === 'declined') return html(402, checkoutPage(checkout, { error: result.failureMessage ?? 'Your card was declined.', values }));
        return reply(303, undefined, { location: result.redirectUrl ?? checkout.successUrl, 'cache-control': 'no-store' });
      } catch (error) {
        if (error instanceof ProcessorError) return html(400, checkoutPage(checkout, { error: error.message, values }));
        throw error;
      }
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
