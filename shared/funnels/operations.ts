import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { funnelCreateBody, funnelRenameBody, funnelSchema, idParams, statsSchema, templateSchema } from './schemas';
import { activateFunnel, createFunnel, deleteFunnel, funnelStats, getFunnel, listFunnels, listTemplates, pauseFunnel, presentFunnel, renameFunnel } from './service';

const tags = ['Funnels'];

export const funnelOperations = [
  defineOperation({ operationId: 'listFunnelTemplates', tool: 'list_funnel_templates', summary: 'Starter sequences: welcome, minicourse, launch', tags, method: 'GET', path: '/funnels/templates', auth: 'key', output: z.array(templateSchema), handler: async () => listTemplates() }),
  defineOperation({ operationId: 'listFunnels', tool: 'list_funnels', summary: 'Funnels of the key\'s mode, newest first', tags, method: 'GET', path: '/funnels', auth: 'key', output: z.array(funnelSchema), handler: async (ctx) => (await listFunnels(ctx, ctx.scope)).map(presentFunnel) }),
  defineOperation({
    operationId: 'createFunnel',
    tool: 'create_funnel',
    summary: 'Creates a funnel (draft) from a template: automation, email posts and optional discount code for the offer',
    tags,
    method: 'POST',
    path: '/funnels',
    auth: 'key',
    plan: 'tier2',
    body: funnelCreateBody,
    output: funnelSchema,
    status: 201,
    handler: async (ctx, { body }) => presentFunnel(await createFunnel(ctx, body)),
  }),
  defineOperation({ operationId: 'getFunnel', tool: 'get_funnel', summary: 'One funnel', tags, method: 'GET', path: '/funnels/{id}', auth: 'key', params: idParams, output: funnelSchema, handler: async (ctx, { params }) => presentFunnel(await getFunnel(ctx, ctx.scope, params.id)) }),
  defineOperation({ operationId: 'renameFunnel', tool: 'rename_funnel', summary: 'Renames a funnel', tags, method: 'PUT', path: '/funnels/{id}', auth: 'key', params: idParams, body: funnelRenameBody, output: funnelSchema, handler: async (ctx, { params, body }) => presentFunnel(await renameFunnel(ctx, ctx.scope, params.id, body.name)) }),
  defineOperation({ operationId: 'deleteFunnel', tool: 'delete_funnel', summary: 'Deletes a funnel and its automation', tags, method: 'DELETE', path: '/funnels/{id}', auth: 'key', params: idParams, output: funnelSchema, handler: async (ctx, { params }) => presentFunnel(await deleteFunnel(ctx, ctx.scope, params.id)) }),
  defineOperation({
    operationId: 'activateFunnel',
    tool: 'activate_funnel',
    summary: 'Turns the funnel\'s automation on (PAID_PLAN_REQUIRED, SENDER_NOT_VERIFIED, EMAILS_MISSING, SEQUENCE_MISSING)',
    tags,
    method: 'POST',
    path: '/funnels/{id}/activate',
    auth: 'key',
    params: idParams,
    output: funnelSchema,
    handler: async (ctx, { params }) => presentFunnel(await activateFunnel(ctx, params.id)),
  }),
  defineOperation({ operationId: 'pauseFunnel', tool: 'pause_funnel', summary: 'Stops new leads entering and pending sends', tags, method: 'POST', path: '/funnels/{id}/pause', auth: 'key', params: idParams, output: funnelSchema, handler: async (ctx, { params }) => presentFunnel(await pauseFunnel(ctx, ctx.scope, params.id)) }),
  defineOperation({ operationId: 'getFunnelStats', tool: 'get_funnel_stats', summary: 'Leads, emails, opens, clicks and attributed purchases (30-day window, refunds excluded)', tags, method: 'GET', path: '/funnels/{id}/stats', auth: 'key', params: idParams, output: statsSchema, handler: async (ctx, { params }) => funnelStats(ctx, ctx.scope, params.id) }),
];
