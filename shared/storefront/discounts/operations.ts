import * as z from '../../platform/zod';
import { defineOperation } from '../../platform/operation';
import { deletedSchema, idParams } from '../schemas';
import { appliedDiscountSchema, applyDiscountParams, createDiscountBody, discountSchema, productParams, updateDiscountBody } from './schemas';
import {
  applyDiscountToProduct,
  createDiscount,
  deleteDiscount,
  getDiscount,
  listDiscounts,
  presentDiscount,
  productHasDiscount,
  updateDiscount,
} from './service';

export const discountOperations = [
  defineOperation({
    operationId: 'listDiscounts',
    tool: 'list_discounts',
    summary: "Discount codes of the account in the key's mode, newest first",
    tags: ['Discounts'],
    method: 'GET',
    path: '/discounts',
    auth: 'key',
    output: z.array(discountSchema),
    handler: async (ctx) => (await listDiscounts(ctx, ctx.scope)).map(presentDiscount),
  }),
  defineOperation({
    operationId: 'createDiscount',
    tool: 'create_discount',
    summary: 'Create a discount code for some products',
    description:
      '`valueType` `percentage` (default, `value` is percent off) or `fixed` (`value` is USD off). Codes are unique per account and mode, case-insensitively (409 DISCOUNT_CODE_TAKEN).',
    tags: ['Discounts'],
    method: 'POST',
    path: '/discounts',
    auth: 'key',
    body: createDiscountBody,
    output: discountSchema,
    status: 201,
    handler: async (ctx, { body }) => presentDiscount(await createDiscount(ctx, ctx.scope, body)),
  }),
  defineOperation({
    operationId: 'getDiscount',
    tool: 'get_discount',
    summary: 'One discount code',
    tags: ['Discounts'],
    method: 'GET',
    path: '/discounts/{id}',
    auth: 'key',
    params: idParams,
    output: discountSchema,
    handler: async (ctx, { params }) => presentDiscount(await getDiscount(ctx, ctx.scope, params.id)),
  }),
  defineOperation({
    operationId: 'updateDiscount',
    tool: 'update_discount',
    summary: 'Change a discount code; only the fields sent change (null clears expiresAt or maxUses)',
    tags: ['Discounts'],
    method: 'POST',
    path: '/discounts/{id}',
    auth: 'key',
    params: idParams,
    body: updateDiscountBody,
    output: discountSchema,
    handler: async (ctx, { params, body }) => presentDiscount(await updateDiscount(ctx, ctx.scope, params.id, body)),
  }),
  defineOperation({
    operationId: 'deleteDiscount',
    tool: 'delete_discount',
    summary: 'Delete a discount code; the code becomes free to reuse',
    tags: ['Discounts'],
    method: 'DELETE',
    path: '/discounts/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      await deleteDiscount(ctx, ctx.scope, params.id);
      return { _id: params.id, deleted: true as const };
    },
  }),
  defineOperation({
    operationId: 'applyDiscount',
    tool: 'apply_discount',
    summary: 'The price of a product after a discount code',
    description:
      '404 for an unknown code or product; 400 DISCOUNT_NOT_APPLICABLE, DISCOUNT_EXPIRED or DISCOUNT_EXHAUSTED when the code cannot be used. Prices in USD; never below 0.',
    tags: ['Discounts'],
    method: 'GET',
    path: '/discounts/apply/{discountCode}/{productId}',
    auth: 'key',
    params: applyDiscountParams,
    output: appliedDiscountSchema,
    handler: async (ctx, { params }) => applyDiscountToProduct(ctx, ctx.scope, params.discountCode, params.productId),
  }),
  defineOperation({
    operationId: 'checkProductDiscount',
    tool: 'check_product_discount',
    summary: 'Whether any usable discount code applies to a product',
    tags: ['Discounts'],
    method: 'GET',
    path: '/discounts/check-product/{productId}',
    auth: 'key',
    params: productParams,
    output: z.object({ hasDiscount: z.boolean() }),
    handler: async (ctx, { params }) => ({ hasDiscount: await productHasDiscount(ctx, ctx.scope, params.productId) }),
  }),
];
