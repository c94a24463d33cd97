import type { Deps } from '../platform/context';
import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { CUSTOMER, SALE, normalizeEmail, type CustomerRecord, type SaleRecord } from './records';

const NOT_EXISTS = 'attribute_not_exists(PK)';
const EXISTS = 'attribute_exists(PK)';
const CUSTOMER_EMAIL = 'CUSTOMER_EMAIL';
const PAYMENT = 'PAYMENT';
const SALES_BY_TYPE = 'SALES_BY_TYPE';
const SUBSCRIBER_SALES = 'SUBSCRIBER_SALES';
/** Scope-free pointer from a sale id to its tenant, for the local control API. */
export const SALE_LOCATOR = 'sale';

// ---- sales ----

export const saleItem = (scope: Scope, sale: SaleRecord) =>
  toItem(keys.entity(scope, SALE, sale._id), 'Sale', sale, {
    indexes: [
      keys.indexed('GSI1', scope, SALES_BY_TYPE, sale.type, sale._id),
      ...(sale.subscriberId ? [keys.indexed('GSI2', scope, SUBSCRIBER_SALES, sale.subscriberId, sale._id)] : []),
    ],
  });

/** A new sale, the processor payment id pointing to it, and its locator. */
export function salePuts(scope: Scope, sale: SaleRecord): TransactOp[] {
  const ops: TransactOp[] = [
    { put: saleItem(scope, sale), condition: NOT_EXISTS },
    { put: toItem(keys.capability(SALE_LOCATOR, sale._id), 'SaleLocator', { accountId: scope.accountId, mode: scope.mode, saleId: sale._id }) },
  ];
  if (sale.paymentIntentId) ops.push({ put: toItem(keys.unique(scope, PAYMENT, sale.paymentIntentId), 'PaymentPointer', { saleId: sale._id }), condition: NOT_EXISTS });
  return ops;
}

export const saleUpdate = (scope: Scope, saleId: string, set: Partial<SaleRecord>, condition?: { expression: string; values: Record<string, unknown>; names?: Record<string, string> }): TransactOp => ({
  update: keys.entity(scope, SALE, saleId),
  set: set as Record<string, unknown>,
  condition: condition ? `${EXISTS} AND ${condition.expression}` : EXISTS,
  values: condition?.values,
  names: condition?.names,
});

export async function getSale(store: Store, scope: Scope, id: string): Promise<SaleRecord | undefined> {
  return toRecord<SaleRecord>(await store.get(keys.entity(scope, SALE, id)));
}

export async function getSaleByPayment(store: Store, scope: Scope, paymentId: string): Promise<SaleRecord | undefined> {
  const pointer = await store.get<{ saleId: string }>(keys.unique(scope, PAYMENT, paymentId), { consistent: true });
  return pointer ? getSale(store, scope, pointer.saleId) : undefined;
}

export async function locateSale(store: Store, saleId: string): Promise<Scope | undefined> {
  const locator = await store.get<{ accountId: string; mode: Scope['mode'] }>(keys.capability(SALE_LOCATOR, saleId));
  return locator ? { accountId: locator.accountId, mode: locator.mode } : undefined;
}

export async function listSales(store: Store, scope: Scope, type?: SaleRecord['type']): Promise<SaleRecord[]> {
  const items = type
    ? await store.queryAll(keys.indexPartition('GSI1', scope, SALES_BY_TYPE, type))
    : await store.queryAll({ pk: keys.collection(scope, SALE) });
  return items.map((item) => toRecord<SaleRecord>(item)!);
}

/** Sales oldest first after a sale id (ids are time-ordered), one page at a time. */
export async function salesPage(store: Store, scope: Scope, afterId: string, limit: number): Promise<SaleRecord[]> {
  const page = await store.query({ pk: keys.collection(scope, SALE), after: afterId, ascending: true, limit });
  return page.items.map((item) => toRecord<SaleRecord>(item)!);
}

export async function listSubscriberSales(store: Store, scope: Scope, subscriberId: string): Promise<SaleRecord[]> {
  const items = await store.queryAll(keys.indexPartition('GSI2', scope, SUBSCRIBER_SALES, subscriberId));
  return items.map((item) => toRecord<SaleRecord>(item)!);
}

// ---- customers ----

export async function getCustomer(store: Store, scope: Scope, id: string): Promise<CustomerRecord | undefined> {
  return toRecord<CustomerRecord>(await store.get(keys.entity(scope, CUSTOMER, id)));
}

export async function findCustomerByEmail(store: Store, scope: Scope, email: string): Promise<CustomerRecord | undefined> {
  const pointer = await store.get<{ customerId: string }>(keys.unique(scope, CUSTOMER_EMAIL, normalizeEmail(email)), { consistent: true });
  return pointer ? toRecord<CustomerRecord>(await store.get(keys.entity(scope, CUSTOMER, pointer.customerId), { consistent: true })) : undefined;
}

export async function listCustomers(store: Store, scope: Scope): Promise<CustomerRecord[]> {
  return (await store.queryAll({ pk: keys.collection(scope, CUSTOMER) })).map((item) => toRecord<CustomerRecord>(item)!);
}

/** A new customer and its email guard: the guard fails the transaction if the email is taken. */
export function customerPuts(scope: Scope, customer: CustomerRecord): TransactOp[] {
  return [
    { put: toItem(keys.entity(scope, CUSTOMER, customer._id), 'Customer', customer), condition: NOT_EXISTS },
    { put: toItem(keys.unique(scope, CUSTOMER_EMAIL, customer.buyerEmail), 'CustomerEmail', { customerId: customer._id }), condition: NOT_EXISTS },
  ];
}

/** Changes an existing customer's fields (a purchase that is not charged counts no order). */
export const customerUpdate = (scope: Scope, customer: CustomerRecord, set: Partial<CustomerRecord>): TransactOp => ({
  update: keys.entity(scope, CUSTOMER, customer._id),
  set: set as Record<string, unknown>,
});

/** One more order for an existing customer; `orders` is the count read, so racing sales retry. */
export function customerOrderUpdate(scope: Scope, customer: CustomerRecord, set: Partial<CustomerRecord>): TransactOp {
  return {
    update: keys.entity(scope, CUSTOMER, customer._id),
    set: { ...set, numberOfOrders: customer.numberOfOrders + 1 } as Record<string, unknown>,
    condition: `${EXISTS} AND numberOfOrders = :orders`,
    values: { ':orders': customer.numberOfOrders },
  };
}

export type { Deps };
