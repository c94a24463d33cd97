import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { deleteAutomation, getAutomation, listAutomations } from './service';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const stepSchema = z.union([z.object({ type: z.literal('send_email'), postId: z.string() }), z.object({ type: z.literal('wait'), hours: z.number() })]);
export const automationSchema = z.object({
  _id: z.string(),
  name: z.string(),
  trigger: z.object({ type: z.string(), productId: z.string() }),
  steps: z.array(stepSchema),
  status: z.enum(['draft', 'active', 'paused']),
  owner: z.optional(z.object({ kind: z.string(), id: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const present = ({ linkBaseUrl: _l, ...rest }: z.input<typeof automationSchema> & { linkBaseUrl?: string }) => rest;

export const automationOperations = [
  defineOperation({
    operationId: 'listAutomations', tool: 'list_automations',
    summary: 'Automations of the key\'s mode, newest first (funnels create theirs)',
    tags: ['Automations'],
    method: 'GET',
    path: '/automations',
    auth: 'key',
    query: z.object({ limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50), cursor: z.optional(z.string().check(z.maxLength(2000))) }),
    output: z.object({ automations: z.array(automationSchema), cursor: z.nullable(z.string()) }),
    handler: async (ctx, { query }) => {
      const page = await listAutomations(ctx, ctx.scope, query);
      return { automations: page.automations.map(present), cursor: page.cursor ?? null };
    },
  }),
  defineOperation({
    operationId: 'getAutomation', tool: 'get_automation',
    summary: 'One automation: trigger and steps',
    tags: ['Automations'],
    method: 'GET',
    path: '/automations/{id}',
    auth: 'key',
    params: idParams,
    output: automationSchema,
    handler: async (ctx, { params }) => present(await getAutomation(ctx, ctx.scope, params.id)),
  }),
  defineOperation({
    operationId: 'deleteAutomation', tool: 'delete_automation',
    summary: 'Deletes a paused or draft automation; a funnel using it can no longer be activated (SEQUENCE_MISSING)',
    tags: ['Automations'],
    method: 'DELETE',
    path: '/automations/{id}',
    auth: 'key',
    params: idParams,
    output: automationSchema,
    handler: async (ctx, { params }) => present(await deleteAutomation(ctx, ctx.scope, params.id)),
  }),
];
