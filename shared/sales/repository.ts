import type { Deps } from '../platform/context';
import { collectPage, type Page } from '../platform/paging';
import { KEY_EXISTS, putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import type { Store, TransactOp } from '../store/store';
import { customerEmailEntity, customerEmailKeyBefore, customerEntity, paymentPointerEntity, saleEntity, saleLocatorEntity } from './entities';
import { normalizeEmail, type CustomerRecord, type SaleRecord } from './records';

export { SALE_LOCATOR } from './entities';

const EXISTS = KEY_EXISTS;
const saleKey = saleEntity.declaration.key;
const customerKey = customerEntity.declaration.key;
const { ofType, ofSubscriber, ofCustomer } = saleEntity.declaration.indexes!;

// ---- sales ----

export const saleItem = (scope: Scope, sale: SaleRecord) =>
  saleEntity.item(saleKey(scope, sale._id), sale, {
    indexes: [
      ofType.key(scope, sale.type, sale._id),
      ...(sale.subscriberId ? [ofSubscriber.key(scope, sale.subscriberId, sale._id)] : []),
      ...(sale.customerId ? [ofCustomer.key(scope, sale.customerId, sale._id)] : []),
    ],
  });

/** A new sale, the processor payment id pointing to it, and its locator. */
export function salePuts(scope: Scope, sale: SaleRecord): TransactOp[] {
  const ops: TransactOp[] = [
    putNew(saleItem(scope, sale)),
    { put: saleLocatorEntity.item(saleLocatorEntity.declaration.key(sale._id), { accountId: scope.accountId, mode: scope.mode, saleId: sale._id }) },
  ];
  if (sale.paymentIntentId)
    ops.push(putNew(paymentPointerEntity.item(paymentPointerEntity.declaration.key(scope, sale.paymentIntentId), { saleId: sale._id })));
  return ops;
}

export const saleUpdate = (
  scope: Scope,
  saleId: string,
  set: Partial<SaleRecord>,
  condition?: { expression: string; values: Record<string, unknown>; names?: Record<string, string> },
): TransactOp => ({
  update: saleKey(scope, saleId),
  set: set as Record<string, unknown>,
  condition: condition ? `${EXISTS} AND ${condition.expression}` : EXISTS,
  values: condition?.values,
  names: condition?.names,
});

export async function getSale(store: Store, scope: Scope, id: string): Promise<SaleRecord | undefined> {
  return saleEntity.get(store, 'byId', scope, id);
}

export async function getSaleByPayment(store: Store, scope: Scope, paymentId: string): Promise<SaleRecord | undefined> {
  const pointer = await paymentPointerEntity.getMoving(store, 'byPayment', 'byPaymentBefore', scope, paymentId);
  return pointer ? getSale(store, scope, pointer.saleId) : undefined;
}

export async function locateSale(store: Store, saleId: string): Promise<Scope | undefined> {
  const locator = await saleLocatorEntity.get(store, 'bySale', saleId);
  return locator ? { accountId: locator.accountId, mode: locator.mode } : undefined;
}

/** One page of sales (of one type, or all), newest first. */
export function salesPageOf(
  store: Store,
  scope: Scope,
  type: SaleRecord['type'] | undefined,
  page: { limit: number; cursor?: string },
): Promise<Page<SaleRecord>> {
  return collectPage(
    (limit, cursor) =>
      type ? saleEntity.query(store, 'ofType', [scope, type], { limit, cursor }) : saleEntity.query(store, 'all', [scope], { limit, cursor }),
    page.limit,
    page.cursor,
  );
}

/** Sales oldest first after a sale id (ids are time-ordered), one page at a time. */
export async function salesPage(store: Store, scope: Scope, afterId: string, limit: number): Promise<SaleRecord[]> {
  return (await saleEntity.query(store, 'after', [scope], { after: afterId, limit })).items;
}

export async function listSubscriberSales(store: Store, scope: Scope, subscriberId: string): Promise<SaleRecord[]> {
  return saleEntity.queryAll(store, 'ofSubscriber', [scope, subscriberId]);
}

/** One page of a customer's sales, newest first. */
export async function customerSalesPage(
  store: Store,
  scope: Scope,
  customerId: string,
  cursor: string | undefined,
  limit: number,
): Promise<{ items: SaleRecord[]; cursor?: string }> {
  return saleEntity.query(store, 'ofCustomer', [scope, customerId], { cursor, limit });
}

// ---- customers ----

export async function getCustomer(store: Store, scope: Scope, id: string): Promise<CustomerRecord | undefined> {
  return customerEntity.get(store, 'byId', scope, id);
}

export async function findCustomerByEmail(store: Store, scope: Scope, email: string): Promise<CustomerRecord | undefined> {
  // A guard of the layout before shards moves to its shard, where a new customer's guard conditions look.
  const pointer = await customerEmailEntity.getMoving(store, 'byEmail', 'byEmailBefore', scope, normalizeEmail(email));
  return pointer ? customerEntity.get(store, 'latest', scope, pointer.customerId) : undefined;
}

/** One page of customers, newest (or oldest) first, optionally only buyers of a product. */
export function customersPageOf(
  store: Store,
  scope: Scope,
  filter: { productId?: string; oldestFirst?: boolean },
  page: { limit: number; cursor?: string },
): Promise<Page<CustomerRecord>> {
  const options = {
    ascending: filter.oldestFirst ?? false,
    ...(filter.productId ? { filter: { expression: 'contains(productIds, :productId)', values: { ':productId': filter.productId } } } : {}),
  };
  return collectPage((limit, cursor) => customerEntity.query(store, 'all', [scope], { ...options, limit, cursor }), page.limit, page.cursor);
}

/** A new customer and its email guard: the guard fails the transaction if the email is taken. */
export function customerPuts(scope: Scope, customer: CustomerRecord): TransactOp[] {
  return [
    putNew(customerEntity.item(customerKey(scope, customer._id), customer)),
    putNew(customerEmailEntity.item(customerEmailEntity.declaration.key(scope, customer.buyerEmail), { customerId: customer._id })),
  ];
}

/** A customer and its email guard, gone (an erasure): the email may become a new customer later. */
export function customerDeletes(scope: Scope, customer: CustomerRecord): TransactOp[] {
  return [
    { delete: customerKey(scope, customer._id) },
    { delete: customerEmailEntity.declaration.key(scope, customer.buyerEmail) },
    // A guard an earlier release wrote and no read has moved yet.
    { delete: customerEmailKeyBefore(scope, customer.buyerEmail) },
  ];
}

/** Changes an existing customer's fields (a purchase that is not charged counts no order). */
export const customerUpdate = (scope: Scope, customer: CustomerRecord, set: Partial<CustomerRecord>): TransactOp => ({
  update: customerKey(scope, customer._id),
  set: set as Record<string, unknown>,
});

/** One more order for an existing customer; `orders` is the count read, so racing sales retry. */
export function customerOrderUpdate(scope: Scope, customer: CustomerRecord, set: Partial<CustomerRecord>): TransactOp {
  return {
    update: customerKey(scope, customer._id),
    set: { ...set, numberOfOrders: customer.numberOfOrders + 1 } as Record<string, unknown>,
    condition: `${EXISTS} AND numberOfOrders = :orders`,
    values: { ':orders': customer.numberOfOrders },
  };
}

export type { Deps };
