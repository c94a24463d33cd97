import type { Clock } from '../platform/clock';
import type { Deps } from '../platform/context';
import { newEvent, type DomainEvent } from '../platform/events';
import { objectId, randomBase62 } from '../platform/ids';
import { keys, type Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { customerCreatedOnSaleData, orderCompletedData } from './events';
import { normalizeEmail, type CustomerRecord, type SaleRecord } from './records';
import { RECEIPT_CAPABILITY_KIND } from '../storefront/reviews/records';
import {
  customerOrderUpdate,
  customerPuts,
  customerUpdate,
  findCustomerByEmail,
  receiptEmailErasure,
  receiptSaleId,
  receiptToken,
  salePuts,
  type SaleReceipt,
} from './repository';

/**
 * The sales side of a money-path transaction (a checkout's fulfilment, a renewal charge, a credits
 * top-off): the customer, the sale and its receipt, as writes and events that the caller puts in
 * its one transaction. Sales owns these records; callers describe the purchase and compose.
 */

export interface PurchaseBuyer {
  email: string;
  firstName?: string;
  lastName?: string;
  country?: string;
  /** The language of the checkout page the buyer paid on. */
  locale?: string;
}

/**
 * The customer of a purchase: reused by email (names filled in where given, the product added,
 * one more order when `charged`) or created. The writes fail the transaction if a racing purchase
 * changed the order count or created the same email first.
 */
export async function purchaseCustomer(
  deps: Deps,
  scope: Scope,
  input: { buyer: PurchaseBuyer; productId: string; charged: boolean; now: string },
): Promise<{ customer: CustomerRecord; ops: TransactOp[] }> {
  const { buyer, productId, charged, now } = input;
  const email = normalizeEmail(buyer.email);
  const existing = await findCustomerByEmail(deps.store, scope, email);
  if (existing) {
    const customer: CustomerRecord = {
      ...existing,
      firstName: buyer.firstName ?? existing.firstName,
      lastName: buyer.lastName ?? existing.lastName,
      country: buyer.country ?? existing.country,
      ...(buyer.locale ? { locale: buyer.locale } : {}),
      productIds: existing.productIds.includes(productId) ? existing.productIds : [...existing.productIds, productId],
      numberOfOrders: existing.numberOfOrders + (charged ? 1 : 0),
      updatedAt: now,
    };
    const { numberOfOrders: _n, ...set } = customer;
    return { customer, ops: [charged ? customerOrderUpdate(scope, existing, set) : customerUpdate(scope, existing, set)] };
  }
  const customer: CustomerRecord = {
    _id: objectId(deps.clock),
    userId: scope.accountId,
    buyerEmail: email,
    firstName: buyer.firstName ?? null,
    lastName: buyer.lastName ?? null,
    country: buyer.country ?? null,
    ...(buyer.locale ? { locale: buyer.locale } : {}),
    productId,
    productIds: [productId],
    testMode: scope.mode === 'test',
    numberOfOrders: charged ? 1 : 0,
    createdAt: now,
    updatedAt: now,
  };
  return { customer, ops: customerPuts(scope, customer) };
}

/** What a caller says about a completed sale; sales adds its id, status and bookkeeping. */
export type SaleDescription = Omit<SaleRecord, '_id' | 'status' | 'refundedCents' | 'testMode' | 'createdAt' | 'receiptToken' | 'refundedAt' | 'disputedAt'>;

/** A new completed sale (its id is taken now, so events built before its writes can name it). */
export const newSale = (clock: Clock, scope: Scope, description: SaleDescription, now: string): SaleRecord => ({
  _id: objectId(clock),
  ...description,
  status: 'completed',
  refundedCents: 0,
  testMode: scope.mode === 'test',
  createdAt: now,
});

/**
 * The receipt token of a completed sale: the reviews feature lets its holder review the product,
 * the survey and the invoice go by it too. It is the sale id and a secret kept on the sale's
 * locator (repository.ts), written in the sale's own transaction with no item of its own; the
 * token is kept on the sale so the seller can hand the buyer the review link (`reviewPath`).
 */
const newReceipt = (sale: SaleRecord): SaleReceipt => ({
  receiptSecret: randomBase62(32),
  productId: sale.productId || sale.subscriptionId || '',
  buyerEmail: sale.buyerEmail,
  customerId: sale.customerId,
});

/**
 * The buyer's email off a sale's receipt capability (an erasure); the receipt still works. A token
 * of this release names its sale's locator; one of a release before, its own item.
 */
export const receiptErasure = (token: string): TransactOp => {
  const saleId = receiptSaleId(token);
  return saleId
    ? receiptEmailErasure(saleId)
    : { update: keys.capability(RECEIPT_CAPABILITY_KIND, token), set: { buyerEmail: '' }, condition: 'attribute_exists(PK)' };
};

/**
 * A completed sale's writes and events: the sale with its receipt and payment pointer, and
 * `order.completed` then `customer.created`. With `countOrder` the customer gets one more order in
 * the same transaction (a charge on an existing customer); otherwise `customer` is as the caller
 * already counted it (purchaseCustomer).
 *
 * `reviewLink: false` writes the receipt but keeps its token off the stored sale (no `reviewPath`
 * on the order): renewal and top-off sales have always been stored that way.
 */
export function saleWrites(
  deps: Pick<Deps, 'clock'>,
  scope: Scope,
  input: { sale: SaleRecord; customer: CustomerRecord; countOrder: boolean; now: string; reviewLink?: boolean },
): { sale: SaleRecord; ops: TransactOp[]; events: DomainEvent[] } {
  const receipt = newReceipt(input.sale);
  const token = receiptToken(input.sale._id, receipt.receiptSecret);
  const sale: SaleRecord = input.reviewLink === false ? input.sale : { ...input.sale, receiptToken: token };
  const ops: TransactOp[] = salePuts(scope, sale, receipt);
  if (input.countOrder) ops.push(customerOrderUpdate(scope, input.customer, { updatedAt: input.now }));
  const counted = input.countOrder ? { ...input.customer, numberOfOrders: input.customer.numberOfOrders + 1 } : input.customer;
  const events = [
    newEvent(scope, deps.clock, 'order.completed', orderCompletedData(sale)),
    newEvent(scope, deps.clock, 'customer.created', customerCreatedOnSaleData(sale, counted)),
  ];
  return { sale, ops, events };
}
