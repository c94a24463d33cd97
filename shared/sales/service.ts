import { emailErasedAt } from '../platform/privacy';
import { lookupOffer, lookupProduct } from '../catalog/service';
import { newEvent, outboxPut } from '../platform/events';
import type { Deps, OperationContext } from '../platform/context';
import { badGateway, badRequest, conflict, notFound } from '../platform/errors';
import { isObjectId, objectId } from '../platform/ids';
import { toMajor } from '../platform/money';
import { processedMarker, transactOnce } from '../processor/marker';
import { ProcessorError, type LivePayment, type PaymentDisputedData, type PaymentRefundedData, type ProcessorNotification } from '../processor/port';
import type { Scope } from '../store/keys';
import { failOnCondition } from '../store/conditional';
import { offerBlock } from '../subscriptions/events';
import { orderRefundedData } from './events';
import { normalizeEmail, type CustomerRecord, type SaleRecord } from './records';
import { refundCheck } from './refund-rules';
import { endDeliverablesOps, orderDeliverables } from './deliverables';
import {
  customerPuts,
  customersPageOf,
  findCustomerByEmail,
  getCustomer,
  getSale,
  getSaleByPayment,
  listSubscriberSales,
  salesPageOf,
  saleUpdate,
} from './repository';

export function presentSale(sale: SaleRecord) {
  return {
    _id: sale._id,
    type: sale.type,
    billingReason: sale.billingReason ?? null,
    productId: sale.productId,
    productName: sale.productName,
    subscriptionId: sale.subscriptionId,
    subscriberId: sale.subscriberId,
    customerId: sale.customerId,
    buyerEmail: sale.buyerEmail,
    firstName: sale.firstName,
    lastName: sale.lastName,
    country: sale.country,
    amount: toMajor(sale.amountCents),
    amountCents: sale.amountCents,
    currency: sale.currency,
    discountCode: sale.discountCode,
    ...(sale.lines
      ? {
          lines: sale.lines.map((l) => ({
            productId: l.productId,
            productName: l.productName,
            amount: toMajor(l.amountCents),
            amountCents: l.amountCents,
            upsellId: l.upsellId ?? null,
          })),
        }
      : {}),
    status: sale.status,
    refundedAmount: toMajor(sale.refundedCents),
    refundedCents: sale.refundedCents,
    tax: { amount: toMajor(sale.taxCents ?? 0), amountCents: sale.taxCents ?? 0, rate: sale.taxRatePercent ?? 0 },
    vatNumber: sale.vatNumber ?? null,
    paymentIntentId: sale.paymentIntentId,
    planId: sale.planId,
    paymentMethod: sale.paymentMethod,
    clientReferenceId: sale.clientReferenceId,
    reviewPath: sale.receiptToken ? `/reviews/submit/${sale.receiptToken}` : null,
    attribution: sale.attribution ? { optionId: sale.attribution.optionId, label: sale.attribution.label, channel: sale.attribution.channel } : null,
    metadata: sale.metadata ?? {},
    free: sale.free,
    testMode: sale.testMode,
    createdAt: sale.createdAt,
    refundedAt: sale.refundedAt ?? null,
    disputedAt: sale.disputedAt ?? null,
  };
}

export const presentCustomer = (c: CustomerRecord) => ({
  _id: c._id,
  userId: c.userId,
  buyerEmail: c.buyerEmail,
  firstName: c.firstName,
  lastName: c.lastName,
  country: c.country,
  productId: c.productId,
  productIds: c.productIds,
  testMode: c.testMode,
  numberOfOrders: c.numberOfOrders,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

// ---- orders and payments ----

export type PageRequest = { limit: number; cursor?: string };

export async function listOrders(ctx: OperationContext, page: PageRequest) {
  const found = await salesPageOf(ctx.store, ctx.scope, 'one_time', page);
  return { items: found.items.map(presentSale), nextCursor: found.nextCursor };
}

export async function getOrder(ctx: OperationContext, id: string) {
  const sale = isObjectId(id) ? await getSale(ctx.store, ctx.scope, id) : undefined;
  if (!sale || sale.type !== 'one_time') throw notFound('Order');
  const base = (ctx.config.PUBLIC_BASE_URL ?? ctx.request.baseUrl).replace(/\/$/, '');
  return { ...presentSale(sale), ...(await orderDeliverables(ctx, ctx.scope, sale, base)) };
}

export async function listPayments(ctx: OperationContext, type: SaleRecord['type'] | undefined, page: PageRequest) {
  const found = await salesPageOf(ctx.store, ctx.scope, type, page);
  return { items: found.items.map(presentSale), nextCursor: found.nextCursor };
}

export async function getPayment(ctx: OperationContext, id: string, live: boolean) {
  const sale = isObjectId(id) ? await getSale(ctx.store, ctx.scope, id) : undefined;
  if (!sale) throw notFound('Payment');
  const [product, offer, customer] = await Promise.all([
    sale.productId ? lookupProduct(ctx, ctx.scope, sale.productId) : undefined,
    sale.subscriptionId ? lookupOffer(ctx, ctx.scope, sale.subscriptionId) : undefined,
    getCustomer(ctx.store, ctx.scope, sale.customerId),
  ]);
  const answer: ReturnType<typeof presentSale> & Record<string, unknown> = {
    ...presentSale(sale),
    product: product
      ? { _id: product._id, name: product.name, price: toMajor(product.priceCents), currency: product.currency, productType: product.productType }
      : null,
    subscription: offer ? offerBlock(offer) : null,
    customer: customer ? presentCustomer(customer) : null,
    processor: { paymentIntentId: sale.paymentIntentId, planId: sale.planId, membershipId: sale.membershipId, paymentMethod: sale.paymentMethod },
  };
  if (live) answer.processorLive = sale.paymentIntentId ? await livePayment(ctx, sale.paymentIntentId) : null;
  return answer;
}

/** A processor lookup that never fails the request: any error degrades to null. */
async function livePayment(ctx: OperationContext, paymentId: string): Promise<LivePayment | null> {
  try {
    return await ctx.ports.processor.getPayment(ctx.scope, paymentId);
  } catch {
    return null;
  }
}

/**
 * The seller's refund of a sale (all of what is left, or `amountCents` of it). The processor
 * carries it out and its notification updates the sale and fires `order.refunded`, as for a refund
 * made in the processor's own dashboard: this answers 202 with the sale as it stands.
 */
export async function refundPayment(ctx: OperationContext, id: string, amountCents?: number) {
  const sale = isObjectId(id) ? await getSale(ctx.store, ctx.scope, id) : undefined;
  if (!sale) throw notFound('Payment');
  const check = refundCheck(sale, amountCents);
  if (!check.ok) throw conflict(check.reason, check.code);
  try {
    await ctx.ports.processor.refund(ctx.scope, sale.paymentIntentId!, amountCents);
  } catch (error) {
    if (error instanceof ProcessorError) {
      if (error.code === 'invalid' || error.code === 'not_found') throw conflict(error.message, 'PROCESSOR_INVALID_STATE');
      throw badGateway(`The payment processor refused: ${error.message}`, 'PROCESSOR_REFUSED');
    }
    throw error;
  }
  return { ...presentSale(sale), refund: { requestedCents: check.amountCents, status: 'pending' as const } };
}

// ---- customers ----

export type CustomerSort = 'newest' | 'oldest' | 'orders' | 'email';

/**
 * One page of customers. Pages go newest first (`oldest`: oldest first); `orders` and `email` sort
 * the rows of the page, taken newest first: with no index in those orders, sorting the whole list
 * would read all of it on every request. The default page (1,000) holds every customer of most
 * stores, so for them it is the whole list sorted.
 */
export async function listCustomersOf(ctx: OperationContext, filter: { productId?: string; sort?: CustomerSort }, page: PageRequest) {
  const sort = filter.sort ?? 'newest';
  const found = await customersPageOf(ctx.store, ctx.scope, { productId: filter.productId, oldestFirst: sort === 'oldest' }, page);
  const byId = (a: CustomerRecord, b: CustomerRecord) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  if (sort === 'orders') found.items.sort((a, b) => b.numberOfOrders - a.numberOfOrders || byId(b, a));
  if (sort === 'email') found.items.sort((a, b) => a.buyerEmail.localeCompare(b.buyerEmail));
  return { items: found.items.map(presentCustomer), nextCursor: found.nextCursor };
}

export async function getCustomerById(ctx: OperationContext, id: string) {
  const customer = isObjectId(id) ? await getCustomer(ctx.store, ctx.scope, id) : undefined;
  if (!customer) throw notFound('Customer');
  return presentCustomer(customer);
}

export async function createCustomer(
  ctx: OperationContext,
  input: { email: string; firstName?: string; lastName?: string; country?: string; productId?: string },
) {
  const email = normalizeEmail(input.email);
  if (await findCustomerByEmail(ctx.store, ctx.scope, email)) throw conflict('A customer with this email already exists', 'CUSTOMER_EXISTS');
  // A buyer erased on request is not brought back by hand either (the do-not-recreate list).
  if (await emailErasedAt(ctx, ctx.scope, email)) throw conflict('This email belongs to a buyer whose data was erased on request', 'EMAIL_ERASED');
  const now = ctx.clock.now().toISOString();
  const customer: CustomerRecord = {
    _id: objectId(ctx.clock),
    userId: ctx.scope.accountId,
    buyerEmail: email,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    country: input.country ?? null,
    productId: input.productId ?? null,
    productIds: input.productId ? [input.productId] : [],
    testMode: ctx.scope.mode === 'test',
    numberOfOrders: 0,
    createdAt: now,
    updatedAt: now,
  };
  const presented = presentCustomer(customer);
  await failOnCondition(
    ctx.store.transact([...customerPuts(ctx.scope, customer), outboxPut(newEvent(ctx.scope, ctx.clock, 'customer.created', { ...presented }))]),
    () => conflict('A customer with this email already exists', 'CUSTOMER_EXISTS'),
  );
  return presented;
}

// ---- refunds and disputes (processor notifications) ----

export async function onPaymentRefunded(deps: Deps, scope: Scope, notification: ProcessorNotification): Promise<boolean | void> {
  const data = notification.data as unknown as PaymentRefundedData;
  const sale = await getSaleByPayment(deps.store, scope, data.paymentId);
  if (!sale) return;
  const now = deps.clock.now().toISOString();
  const after: SaleRecord = { ...sale, refundedCents: data.refundedCents, status: data.full ? 'refunded' : sale.status, refundedAt: now };
  const event = newEvent(scope, deps.clock, 'order.refunded', orderRefundedData(after, { id: data.refundId, amountCents: data.amountCents, full: data.full }));
  return transactOnce(deps, notification.id, [
    processedMarker(notification.id, notification.created),
    saleUpdate(
      scope,
      sale._id,
      { refundedCents: after.refundedCents, status: after.status, refundedAt: now },
      { expression: 'refundedCents = :seen', values: { ':seen': sale.refundedCents } },
    ),
    outboxPut(event),
    // A full refund of a one-time order ends its downloads and its licence keys, in this transaction.
    ...(data.full ? await endDeliverablesOps(deps, scope, sale, 'refund', now) : []),
  ]);
}

export async function onPaymentDisputed(deps: Deps, scope: Scope, notification: ProcessorNotification): Promise<boolean | void> {
  const data = notification.data as unknown as PaymentDisputedData;
  const sale = await getSaleByPayment(deps.store, scope, data.paymentId);
  if (!sale) return;
  const after: SaleRecord = { ...sale, status: 'disputed', disputedAt: deps.clock.now().toISOString() };
  // Internal event (not in the webhook catalog, so never delivered): consumers such as the sheet
  // sync follow the status change from it.
  return transactOnce(deps, notification.id, [
    processedMarker(notification.id, notification.created),
    saleUpdate(scope, sale._id, { status: 'disputed', disputedAt: after.disputedAt }),
    outboxPut(newEvent(scope, deps.clock, 'order.disputed', { order: { id: sale._id, type: sale.type, status: 'disputed', currency: sale.currency } })),
    ...(await endDeliverablesOps(deps, scope, sale, 'dispute', after.disputedAt!)),
  ]);
}

// ---- reads for other capabilities and the processor's local control routes ----
// (the plain lookups are in lookups.ts: they reach no processor, so their callers' functions do not bundle it)
export { findCustomer, findCustomerOfEmail, locateSaleById, pastSalesPage } from './lookups';

/** The sales of one subscriber, as the API shows them (a subscriber's `payments`). */
export async function subscriberPayments(deps: Pick<Deps, 'store'>, scope: Scope, subscriberId: string) {
  return (await listSubscriberSales(deps.store, scope, subscriberId)).map(presentSale);
}

/** Local control API: the seller's refund or dispute, carried out by the processor. */
export async function saleForControl(deps: Deps, scope: Scope, saleId: string) {
  const sale = await getSale(deps.store, scope, saleId);
  if (!sale) throw notFound('Sale');
  if (!sale.paymentIntentId) throw badRequest('A free order has no payment to refund or dispute', { field: 'saleId' });
  return sale;
}

/** What an order delivers (files, licence keys), by its id: the thank-you page. */
export async function deliverablesOfSale(deps: Pick<Deps, 'store' | 'clock' | 'ports'>, scope: Scope, saleId: string, baseUrl: string) {
  const sale = await getSale(deps.store, scope, saleId);
  return sale ? orderDeliverables(deps, scope, sale, baseUrl) : undefined;
}

/** One sale as the API shows it, or undefined (receipts and other consumers of sale events). */
export async function findSale(deps: Pick<Deps, 'store'>, scope: Scope, id: string) {
  const sale = await getSale(deps.store, scope, id);
  return sale ? presentSale(sale) : undefined;
}
