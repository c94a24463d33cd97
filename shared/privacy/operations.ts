import { defineOperation, rawReply } from '../platform/operation';
import { customerParams, erasureSchema } from './schemas';
import { exportCustomer, getErasureStatus, requestErasure } from './service';

/** Owners and admins only: an export holds everything about a buyer, an erasure cannot be undone. */
export const privacyOperations = [
  defineOperation({
    operationId: 'exportCustomer',
    tool: 'export_customer',
    summary: "Everything held about a buyer in this mode, as JSON: customer, orders and payments, subscriptions, credits, contact, memberships, survey answers and each other capability's part",
    tags: ['Customers'],
    area: 'admin',
    method: 'GET',
    path: '/customers/{id}/export',
    auth: 'key',
    params: customerParams,
    handler: async (ctx, { params }) =>
      rawReply(200, await exportCustomer(ctx, params.id), 'application/json', { 'content-disposition': `attachment; filename="customer-${params.id}.json"` }),
  }),
  defineOperation({
    operationId: 'eraseCustomer',
    tool: 'erase_customer',
    summary: "Erase a buyer's personal data everywhere (202): the customer and contact at once, then every other part; amounts, dates, products, country and tax stay on the books under the customer id; customer.erased follows",
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
