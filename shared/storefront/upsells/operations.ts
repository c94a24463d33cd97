import * as z from '../../platform/zod';
import { defineOperation } from '../../platform/operation';
import { deletedSchema, idParams } from '../schemas';
import { createUpsellBody, updateUpsellBody, upsellSchema } from './schemas';
import { createUpsell, deleteUpsell, getUpsell, listUpsells, presentUpsell, updateUpsell } from './service';

export const upsellOperations = [
  defineOperation({
    operationId: 'listUpsells',
    tool: 'list_upsells',
    summary: "Upsells of the account in the key's mode, newest first",
    tags: ['Upsells'],
    method: 'GET',
    path: '/upsells',
    auth: 'key',
    output: z.array(upsellSchema),
    handler: async (ctx) => (await listUpsells(ctx, ctx.scope)).map(presentUpsell),
  }),
  defineOperation({
    operationId: 'createUpsell',
    tool: 'create_upsell',
    summary: 'Offer a product at a special price (USD) to buyers of other products',
    tags: ['Upsells'],
    method: 'POST',
    path: '/upsells',
    auth: 'key',
    body: createUpsellBody,
    output: upsellSchema,
    status: 201,
    handler: async (ctx, { body }) => presentUpsell(await createUpsell(ctx, ctx.scope, body)),
  }),
  defineOperation({
    operationId: 'getUpsell',
    tool: 'get_upsell',
    summary: 'One upsell',
    tags: ['Upsells'],
    method: 'GET',
    path: '/upsells/{id}',
    auth: 'key',
    params: idParams,
    output: upsellSchema,
    handler: async (ctx, { params }) => presentUpsell(await getUpsell(ctx, ctx.scope, params.id)),
  }),
  defineOperation({
    operationId: 'updateUpsell',
    tool: 'update_upsell',
    summary: 'Change an upsell; only the fields sent change',
    tags: ['Upsells'],
    method: 'POST',
    path: '/upsells/{id}',
    auth: 'key',
    params: idParams,
    body: updateUpsellBody,
    output: upsellSchema,
    handler: async (ctx, { params, body }) => presentUpsell(await updateUpsell(ctx, ctx.scope, params.id, body)),
  }),
  defineOperation({
    operationId: 'deleteUpsell',
    tool: 'delete_upsell',
    summary: 'Delete an upsell',
    tags: ['Upsells'],
    method: 'DELETE',
    path: '/upsells/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      await deleteUpsell(ctx, ctx.scope, params.id);
      return { _id: params.id, deleted: true as const };
    },
  }),
];
