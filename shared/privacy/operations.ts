import { defineOperation, rawReply, reply } from '../platform/operation';
import { customerParams, erasureSchema, exportSchema, exportTokenParams } from './schemas';
import { exportCustomer, getErasureStatus, openExport, requestErasure } from './service';

const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

/** Owners and admins only: an export holds everything about a buyer, an erasure cannot be undone. */
export const privacyOperations = [
  defineOperation({
    operationId: 'exportCustomer',
    tool: 'export_customer',
    summary:
      "Everything held about a buyer in this mode, as a JSON file behind a link valid 15 minutes: customer, orders and payments, subscriptions, credits, contact, memberships, community posts, survey answers, licence keys, downloads and each other capability's part",
    description:
      'The export is written page by page to the file store (never whole in memory, whatever the number of orders), then answered as `{ url, validUntil, bytes }`; `url` downloads the JSON (`{ customerId, email, mode, exportedAt, parts: { <part>: [records] } }`) without an API key.',
    tags: ['Customers'],
    area: 'admin',
    method: 'GET',
    path: '/customers/{id}/export',
    auth: 'key',
    params: customerParams,
    output: exportSchema,
    handler: (ctx, { params }) => exportCustomer(ctx, params.id, (ctx.config.PUBLIC_BASE_URL ?? ctx.request.baseUrl).replace(/\/$/, '')),
  }),
  defineOperation({
    operationId: 'downloadCustomerExport',
    summary: 'Download a buyer export by the link GET /customers/{id}/export answered',
    description: 'The bytes (locally) or a redirect to a presigned S3 address (AWS). 404 for an unknown token, 410 once the link expired.',
    tags: ['Customers'],
    method: 'GET',
    path: '/customer-exports/{token}',
    auth: 'public',
    params: exportTokenParams,
    handler: async (ctx, { params }) => {
      const opened = await openExport(ctx, params.token);
      if (opened.kind === 'redirect') return reply(302, undefined, { location: opened.location, ...PRIVATE });
      return rawReply(200, opened.body, 'application/json', { 'content-disposition': `attachment; filename="${opened.filename}"`, ...PRIVATE });
    },
  }),
  defineOperation({
    operationId: 'eraseCustomer',
    tool: 'erase_customer',
    summary:
      "Erase a buyer's personal data everywhere (202): the customer and contact at once, then every other part; amounts, dates, products, country and tax stay on the books under the customer id; customer.erased follows",
    tags: ['Customers'],
    area: 'admin',
    method: 'DELETE',
    path: '/customers/{id}',
    auth: 'key',
    status: 202,
    params: customerParams,
    output: erasureSchema,
    handler: (ctx, { params }) => requestErasure(ctx, params.id),
  }),
  defineOperation({
    operationId: 'getCustomerErasure',
    tool: 'get_customer_erasure',
    summary: "Progress of a buyer's erasure: running or completed, and the parts already erased",
    tags: ['Customers'],
    area: 'admin',
    method: 'GET',
    path: '/customers/{id}/erasure',
    auth: 'key',
    params: customerParams,
    output: erasureSchema,
    handler: (ctx, { params }) => getErasureStatus(ctx, params.id),
  }),
];
