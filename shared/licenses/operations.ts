import * as z from '../platform/zod';
import { ANY_ORIGIN } from '../platform/cors';
import { defineOperation, reply } from '../platform/operation';
import { activateAnswer, activateBody, deactivateAnswer, deactivateBody, idParams, licenseSchema, listQuery, validateAnswer, validateBody } from './schemas';
import { activateLicense, deactivateLicense, listLicenses, reactivateLicense, revokeLicense, validateLicense } from './service';

/**
 * The public routes a seller's app calls (no API key; rate limited per address and per key) and
 * the seller's routes over the keys issued with paid orders.
 */
export const licenseOperations = [
  defineOperation({
    operationId: 'activateLicense',
    summary: "Activates a licence key on one instance (a machine or install); 409 once the key's activation limit is reached",
    tags: ['Licenses'],
    area: 'orders',
    method: 'POST',
    path: '/licenses/activate',
    auth: 'public',
    unmetered: true,
    // The seller's app may be a web app: its pages call this from the browser.
    cors: ANY_ORIGIN,
    body: activateBody,
    output: activateAnswer,
    handler: (ctx, { body }) => activateLicense(ctx, ctx.request.sourceIp, body),
  }),
  defineOperation({
    operationId: 'validateLicense',
    summary: 'Checks a licence key (and an instance of it): valid: false for a revoked, refunded or expired key; 404 with valid: false for an unknown one',
    tags: ['Licenses'],
    area: 'orders',
    method: 'POST',
    path: '/licenses/validate',
    auth: 'public',
    unmetered: true,
    cors: ANY_ORIGIN,
    body: validateBody,
    output: validateAnswer,
    handler: async (ctx, { body }) => (await validateLicense(ctx, ctx.request.sourceIp, body)) ?? reply(404, { valid: false, license: null }),
  }),
  defineOperation({
    operationId: 'deactivateLicense',
    summary: 'Releases one activation of a licence key (the instance id activate answered)',
    tags: ['Licenses'],
    area: 'orders',
    method: 'POST',
    path: '/licenses/deactivate',
    auth: 'public',
    unmetered: true,
    cors: ANY_ORIGIN,
    body: deactivateBody,
    output: deactivateAnswer,
    handler: (ctx, { body }) => deactivateLicense(ctx, ctx.request.sourceIp, body),
  }),
  defineOperation({
    operationId: 'listLicenses',
    tool: 'list_licenses',
    summary: 'Licence keys issued with paid orders, newest first; filter by productId or orderId',
    tags: ['Licenses'],
    area: 'orders',
    method: 'GET',
    path: '/licenses',
    auth: 'key',
    query: listQuery,
    output: z.object({ data: z.array(licenseSchema), nextCursor: z.nullable(z.string()) }),
    handler: (ctx, { query }) => listLicenses(ctx, query),
  }),
  defineOperation({
    operationId: 'revokeLicense',
    tool: 'revoke_license',
    summary: 'Revokes a licence key: validate answers valid: false and activation is refused; emits license.revoked',
    tags: ['Licenses'],
    area: 'orders',
    method: 'POST',
    path: '/licenses/{id}/revoke',
    auth: 'key',
    params: idParams,
    output: licenseSchema,
    handler: (ctx, { params }) => revokeLicense(ctx, params.id),
  }),
  defineOperation({
    operationId: 'reactivateLicense',
    tool: 'reactivate_license',
    summary: 'Makes a revoked licence key work again (not one whose order was refunded)',
    tags: ['Licenses'],
    area: 'orders',
    method: 'POST',
    path: '/licenses/{id}/reactivate',
    auth: 'key',
    params: idParams,
    output: licenseSchema,
    handler: (ctx, { params }) => reactivateLicense(ctx, params.id),
  }),
];
