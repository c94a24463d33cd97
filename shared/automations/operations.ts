import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { createAutomation, updateAutomation } from './manage';
import type { AutomationRecord } from './records';
import { deleteAutomation, getAutomation, listAutomations } from './service';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const id = z.string().check(z.minLength(1), z.maxLength(64));
const stepSchema = z.union([
  z.object({ type: z.literal('send_email'), postId: id }),
  z.object({ type: z.literal('wait'), hours: z.number().check(z.int('hours is a whole number'), z.minimum(1), z.maximum(8760)) }),
  z.object({
    type: z.literal('if_segment'),
    segmentId: id,
    otherwise: z
      .union([z.literal('end'), z.number().check(z.int(), z.minimum(1))])
      .check(z.describe('Where a contact not in the segment goes: a later step index, or "end"')),
  }),
]);
const triggerSchema = z.union([
  z.object({
    type: z.literal('order_completed'),
    productId: z.optional(id),
    segmentId: z.optional(id).check(z.describe('Only contacts in this segment enter (Growth)')),
  }),
  z.object({ type: z.literal('lead_magnet_claimed'), productId: id, segmentId: z.optional(id) }),
]);
const stepsSchema = z.array(stepSchema).check(z.minLength(1, 'at least one step'), z.maxLength(50, 'at most 50 steps'));
const nameSchema = z.string().check(z.trim(), z.minLength(1, 'name is required'), z.maxLength(120));
const createBody = z.strictObject({ name: nameSchema, trigger: triggerSchema, steps: stepsSchema, status: z.optional(z.enum(['draft', 'active', 'paused'])) });
const updateBody = z.strictObject({
  name: z.optional(nameSchema),
  trigger: z.optional(triggerSchema),
  steps: z.optional(stepsSchema),
  status: z.optional(z.enum(['draft', 'active', 'paused'])),
});
export const automationSchema = z.object({
  _id: z.string(),
  name: z.string(),
  trigger: z.object({ type: z.string(), productId: z.optional(z.string()), segmentId: z.optional(z.string()) }),
  steps: z.array(stepSchema),
  status: z.enum(['draft', 'active', 'paused']),
  owner: z.optional(z.object({ kind: z.string(), id: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
const present = ({ linkBaseUrl: _l, ...rest }: AutomationRecord) => rest;

export const automationOperations = [
  defineOperation({
    operationId: 'listAutomations',
    tool: 'list_automations',
    summary: "Automations of the key's mode, newest first (funnels create theirs)",
    tags: ['Automations'],
    method: 'GET',
    path: '/automations',
    auth: 'key',
    query: z.object({
      limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
      cursor: z.optional(z.string().check(z.maxLength(2000))),
    }),
    output: z.object({ automations: z.array(automationSchema), cursor: z.nullable(z.string()) }),
    handler: async (ctx, { query }) => {
      const page = await listAutomations(ctx, ctx.scope, query);
      return { automations: page.automations.map(present), cursor: page.cursor ?? null };
    },
  }),
  defineOperation({
    operationId: 'createAutomation',
    tool: 'create_automation',
    summary: 'Creates an automation: a trigger (a purchase, optionally only for contacts in a segment) and steps (send_email, wait, if_segment)',
    description:
      'Triggers: `{ type: "order_completed", productId?, segmentId? }`. Steps: `{ type: "send_email", postId }`, `{ type: "wait", hours }`, `{ type: "if_segment", segmentId, otherwise }` (a contact in the segment goes on; one who is not goes to step `otherwise` or leaves with "end"). Posts and segments must be the key\'s; status draft unless given. Growth.',
    tags: ['Automations'],
    method: 'POST',
    path: '/automations',
    auth: 'key',
    plan: 'tier2',
    body: createBody,
    output: automationSchema,
    status: 201,
    handler: async (ctx, { body }) => present(await createAutomation(ctx, body)),
  }),
  defineOperation({
    operationId: 'updateAutomation',
    tool: 'update_automation',
    summary: "Changes an automation's name, trigger, steps or status (active, paused); a funnel's automation answers 409 AUTOMATION_OWNED",
    tags: ['Automations'],
    method: 'PATCH',
    path: '/automations/{id}',
    auth: 'key',
    // Pausing stays open on any plan; every other change needs Growth.
    planFor: ({ body }) => (body.status === 'paused' && Object.keys(body).length === 1 ? undefined : 'tier2'),
    params: idParams,
    body: updateBody,
    output: automationSchema,
    handler: async (ctx, { params, body }) => present(await updateAutomation(ctx, params.id, body)),
  }),
  defineOperation({
    operationId: 'getAutomation',
    tool: 'get_automation',
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
    operationId: 'deleteAutomation',
    tool: 'delete_automation',
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
