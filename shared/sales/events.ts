import { toMajor } from '../platform/money';
import type { CustomerRecord, SaleRecord } from './records';

/**
 * Payloads of the order events, in delivery order. Free orders differ as the spec says: amount 0,
 * no paymentIntentId or planId on `order`, and the tax block keyed `amount` / `rate`.
 */
const productBlock = (sale: SaleRecord) => ({
  id: sale.type === 'subscription' ? sale.subscriptionId : sale.productId,
  name: sale.productName,
  type: sale.type,
});

const customerBlock = (sale: SaleRecord) => ({
  id: sale.customerId,
  email: sale.buyerEmail,
  firstName: sale.firstName,
  lastName: sale.lastName,
  country: sale.country,
});

export function orderCompletedData(sale: SaleRecord): Record<string, unknown> {
  const order: Record<string, unknown> = { id: sale._id };
  if (!sale.free) {
    order.paymentIntentId = sale.paymentIntentId;
    order.planId = sale.planId;
  }
  Object.assign(order, {
    variantId: null,
    vatNumber: sale.vatNumber ?? null,
    type: sale.type,
    ...(sale.billingReason ? { billingReason: sale.billingReason } : {}),
    productId: sale.productId,
    subscriptionId: sale.subscriptionId,
    status: sale.status,
    amount: toMajor(sale.amountCents),
    currency: sale.currency,
    createdAt: sale.createdAt,
    // Only on a checkout with its upsell taken: what the amount is made of.
    ...(sale.lines
      ? {
          lines: sale.lines.map((l) => ({
            productId: l.productId,
            name: l.productName,
            amount: toMajor(l.amountCents),
            ...(l.upsellId ? { upsellId: l.upsellId } : {}),
          })),
        }
      : {}),
  });
  return {
    order,
    amount: toMajor(sale.amountCents),
    currency: sale.currency,
    product: productBlock(sale),
    customer: customerBlock(sale),
    ...(sale.subscriberId ? { subscriptionCustomerId: sale.subscriberId } : {}),
    paymentMethod: sale.paymentMethod,
    tax: sale.free ? { amount: 0, rate: 0 } : { taxAmount: toMajor(sale.taxCents ?? 0), taxRate: sale.taxRatePercent ?? 0 },
    discount: sale.discountCode ? { code: sale.discountCode, amountOff: toMajor(sale.originalAmountCents - sale.amountCents) } : null,
    metadata: sale.metadata ?? {},
    clientReferenceId: sale.clientReferenceId,
  };
}

export function customerCreatedOnSaleData(sale: SaleRecord, customer: CustomerRecord): Record<string, unknown> {
  return {
    customer: {
      id: customer._id,
      email: customer.buyerEmail,
      firstName: customer.firstName,
      lastName: customer.lastName,
      country: customer.country,
      numberOfOrders: customer.numberOfOrders,
    },
    product: productBlock(sale),
    order: { id: sale._id },
  };
}

export function orderRefundedData(sale: SaleRecord, refund: { id: string; amountCents: number; full: boolean }): Record<string, unknown> {
  return {
    order: {
      id: sale._id,
      ...(sale.paymentIntentId ? { paymentIntentId: sale.paymentIntentId } : {}),
      type: sale.type,
      status: sale.status,
      amount: toMajor(sale.amountCents),
      refundedAmount: toMajor(sale.refundedCents),
      currency: sale.currency,
    },
    refund: { id: refund.id, amount: toMajor(refund.amountCents), full: refund.full },
    amount: toMajor(refund.amountCents),
    currency: sale.currency,
    product: productBlock(sale),
    customer: customerBlock(sale),
    ...(sale.subscriberId ? { subscriptionCustomerId: sale.subscriberId } : {}),
    metadata: sale.metadata ?? {},
    clientReferenceId: sale.clientReferenceId,
  };
}
