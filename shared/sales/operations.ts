import * as z from '../platform/zod';
import type { OperationContext } from '../platform/context';
import { defineOperation, reply } from '../platform/operation';
import { nextPageHeaders } from '../platform/paging';
import { getSubscriptionOrder } from '../subscriptions/service';
import {
  createCustomerBody,
  customerSchema,
  customersQuery,
  idParams,
  orderSchema,
  ordersQuery,
  paymentQuery,
  paymentsQuery,
  refundBody,
  saleSchema,
} from './schemas';
import { createCustomer, getCustomerById, getOrder, getPayment, listCustomersOf, listOrders, listPayments, refundPayment } from './service';

const PAGED_ARRAY =
  'The answer is one page: `limit` rows (default and most 1,000). When more follow, the `X-Next-Cursor` header holds the cursor to pass as `cursor` ' +
  '(and `Link` the next page\'s address, rel="next"); no header means the last page.';

/** An array-shaped list page: the rows as the body, the next page in headers. */
const arrayPage = (ctx: OperationContext, query: Record<string, string | number | undefined>, page: { items: unknown[]; nextCursor: string | null }) =>
  reply(200, page.items, nextPageHeaders(page.nextCursor, ctx.request, query));

export const salesOperations = [
  defineOperation({
    operationId: 'listOrders',
    tool: 'list_orders',
    summary: 'One-time orders, newest first (subscription charges are under /payments); one page, the next named by the X-Next-Cursor header',
    description: PAGED_ARRAY,
    tags: ['Orders'],
    method: 'GET',
    path: '/orders',
    auth: 'key',
    query: ordersQuery,
    output: z.array(saleSchema),
    handler: async (ctx, { query }) => arrayPage(ctx, query, await listOrders(ctx, query)),
  }),
  defineOperation({
    operationId: 'getOrder',
    tool: 'get_order',
    summary: 'One one-time order by its own _id, with fresh signed links to its files (downloads) and its licence keys',
    tags: ['Orders'],
    method: 'GET',
    path: '/orders/{id}',
    auth: 'key',
    params: idParams,
    output: orderSchema,
    handler: (ctx, { params }) => getOrder(ctx, params.id),
  }),
  defineOperation({
    operationId: 'getSubscriptionOrder',
    tool: 'get_subscription_order',
    summary: 'A subscriber, its status and every subscription sale',
    tags: ['Orders'],
    method: 'GET',
    path: '/orders/subscriptions/{id}',
    auth: 'key',
    params: idParams,
    output: z.object({ subscriber: z.looseObject({ _id: z.string() }), status: z.string(), sales: z.array(saleSchema) }),
    handler: (ctx, { params }) => getSubscriptionOrder(ctx, params.id),
  }),
  defineOperation({
    operationId: 'listPayments',
    tool: 'list_payments',
    summary: 'Every sale (one-time and subscription), newest first; filter by type; one page, the next named by the X-Next-Cursor header',
    description: PAGED_ARRAY,
    tags: ['Payments'],
    method: 'GET',
    path: '/payments',
    auth: 'key',
    query: paymentsQuery,
    output: z.array(saleSchema),
    handler: async (ctx, { query }) => arrayPage(ctx, query, await listPayments(ctx, query.type, query)),
  }),
  defineOperation({
    operationId: 'getPayment',
    tool: 'get_payment',
    summary: 'One sale with its product or offer, customer and processor block; live=true adds processorLive',
    tags: ['Payments'],
    method: 'GET',
    path: '/payments/{id}',
    auth: 'key',
    params: idParams,
    query: paymentQuery,
    output: saleSchema,
    handler: (ctx, { params, query }) => getPayment(ctx, params.id, query.live === 'true'),
  }),
  defineOperation({
    operationId: 'refundPayment',
    tool: 'refund_payment',
    summary: 'Refund a sale, in full or amountCents of it; the processor carries it out and order.refunded follows',
    tags: ['Payments'],
    method: 'POST',
    path: '/payments/{id}/refund',
    auth: 'key',
    status: 202,
    params: idParams,
    body: refundBody,
    output: saleSchema,
    handler: (ctx, { params, body }) => refundPayment(ctx, params.id, body?.amountCents),
  }),
  defineOperation({
    operationId: 'listCustomers',
    tool: 'list_customers',
    summary: 'Customers (an array, as the spec has it); optional productId filter and sort; bounded to one page, the next named by the X-Next-Cursor header',
    description: `${PAGED_ARRAY} Sort \`orders\` and \`email\` order the rows of each page (pages go newest first).`,
    tags: ['Customers'],
    method: 'GET',
    path: '/customers',
    auth: 'key',
    query: customersQuery,
    output: z.array(customerSchema),
    handler: async (ctx, { query }) => arrayPage(ctx, query, await listCustomersOf(ctx, query, query)),
  }),
  defineOperation({
    operationId: 'getCustomer',
    tool: 'get_customer',
    summary: 'One customer',
    tags: ['Customers'],
    method: 'GET',
    path: '/customers/{id}',
    auth: 'key',
    params: idParams,
    output: customerSchema,
    handler: (ctx, { params }) => getCustomerById(ctx, params.id),
  }),
  defineOperation({
    operationId: 'createCustomer',
    tool: 'create_customer',
    summary: 'Create a customer; emits customer.created with the full record',
    tags: ['Customers'],
    method: 'POST',
    path: '/customers',
    auth: 'key',
    body: createCustomerBody,
    output: customerSchema,
    status: 201,
    handler: (ctx, { body }) => createCustomer(ctx, body),
  }),
];
