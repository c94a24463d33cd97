import * as z from '../../platform/zod';
import { defineOperation } from '../../platform/operation';
import { idParams } from '../schemas';
import { createRefundPolicyBody, refundPolicySchema } from './schemas';
import { createRefundPolicy, getRefundPolicy, listRefundPolicies, presentRefundPolicy } from './service';

export const refundPolicyOperations = [
  defineOperation({
    operationId: 'listRefundPolicies',
    tool: 'list_refund_policies',
    summary: 'Refund policies, newest first, each with appliedTo (how many products use it)',
    tags: ['Refund policies'],
    method: 'GET',
    path: '/refunds',
    auth: 'key',
    output: z.array(refundPolicySchema),
    handler: async (ctx) => (await listRefundPolicies(ctx, ctx.scope)).map(presentRefundPolicy),
  }),
  defineOperation({
    operationId: 'createRefundPolicy',
    tool: 'create_refund_policy',
    summary: 'Create a refund policy (this refunds no payment)',
    tags: ['Refund policies'],
    method: 'POST',
    path: '/refunds',
    auth: 'key',
    body: createRefundPolicyBody,
    output: refundPolicySchema,
    status: 201,
    handler: async (ctx, { body }) => presentRefundPolicy(await createRefundPolicy(ctx, ctx.scope, body)),
  }),
  defineOperation({
    operationId: 'getRefundPolicy',
    tool: 'get_refund_policy',
    summary: 'One refund policy with appliedTo',
    tags: ['Refund policies'],
    method: 'GET',
    path: '/refunds/{id}',
    auth: 'key',
    params: idParams,
    output: refundPolicySchema,
    handler: async (ctx, { params }) => presentRefundPolicy(await getRefundPolicy(ctx, ctx.scope, params.id)),
  }),
];
