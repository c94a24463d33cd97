import { defineOperation } from '../platform/operation';
import { accountSchema, brandingBody, brandingSchema } from './schemas';
import { readBranding, updateBranding } from './branding';

export const accountOperations = [
  defineOperation({
    operationId: 'getCurrentUser',
    tool: 'get_current_user',
    summary: 'The account the key belongs to, and the mode the key works in',
    tags: ['Account'],
    method: 'GET',
    path: '/users/me',
    auth: 'key',
    output: accountSchema,
    handler: async (ctx) => ({
      // Which payment processor each mode uses; the secrets behind it are never shown.
      processors: {
        live: (await ctx.ports.processor.providerOf?.({ accountId: ctx.account.accountId, mode: 'live' })) ?? 'sandbox',
        test: (await ctx.ports.processor.providerOf?.({ accountId: ctx.account.accountId, mode: 'test' })) ?? 'sandbox',
      },
      _id: ctx.account.accountId,
      email: ctx.account.email,
      name: ctx.account.name ?? null,
      plan: ctx.account.plan,
      currency: ctx.account.currency,
      mode: ctx.scope.mode,
      testMode: ctx.scope.mode === 'test',
      createdAt: ctx.account.createdAt,
    }),
  }),
  defineOperation({
    operationId: 'getBranding',
    tool: 'get_branding',
    summary: 'The seller branding buyers see on checkout, thank-you and portal pages and in receipts',
    tags: ['Account'],
    method: 'GET',
    path: '/account/branding',
    auth: 'key',
    output: brandingSchema,
    handler: (ctx) => readBranding(ctx, ctx.scope),
  }),
  defineOperation({
    operationId: 'updateBranding',
    tool: 'update_branding',
    summary: 'Change the seller branding (display name, logo image id, accent colour, support email, default buyer language); null clears a field',
    tags: ['Account'],
    method: 'PATCH',
    path: '/account/branding',
    auth: 'key',
    body: brandingBody,
    output: brandingSchema,
    handler: (ctx, { body }) => updateBranding(ctx, ctx.scope, body),
  }),
];
