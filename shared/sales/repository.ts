import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../platform/context';
import type { Page } from '../platform/paging';
import { KEY_EXISTS, putNew } from '../store/conditional';
import type { Scope } from '../store/keys';
import { afterBound, mergedPage, mergeShards, queryRead } from '../store/shards';
import type { Store, TransactOp } from '../store/store';
import {
  customerEmailEntity,
  customerEmailKeyBefore,
  customerEntity,
  customerPartitions,
  paymentPointerEntity,
  saleEntity,
  saleLocatorEntity,
  salePartitions,
  saleTypePartitions,
  type SaleLocatorRecord,
} from './entities';
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

/** What a sale's receipt token permits, kept on its locator (entities.ts). */
export type SaleReceipt = Required<Pick<SaleLocatorRecord, 'receiptSecret' | 'productId' | 'buyerEmail' | 'customerId'>>;

/** A new sale, the processor payment id pointing to it, and its locator with the receipt capability. */
export function salePuts(scope: Scope, sale: SaleRecord, receipt: SaleReceipt): TransactOp[] {
  const ops: TransactOp[] = [
    putNew(saleItem(scope, sale)),
    {
      put: saleLocatorEntity.item(saleLocatorEntity.declaration.key(sale._id), { accountId: scope.accountId, mode: scope.mode, saleId: sale._id, ...receipt }),
    },
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

/** A sale by id; one an earlier release wrote is moved to its write shard, where updates by key look. */
export async function getSale(store: Store, scope: Scope, id: string): Promise<SaleRecord | undefined> {
  return (await saleEntity.get(store, 'byId', scope, id)) ?? saleEntity.getMoving(store, 'byId', 'byIdBefore', scope, id);
}

export async function getSaleByPayment(store: Store, scope: Scope, paymentId: string): Promise<SaleRecord | undefined> {
  const pointer = await paymentPointerEntity.getMoving(store, 'byPayment', 'byPaymentBefore', scope, paymentId);
  return pointer ? getSale(store, scope, pointer.saleId) : undefined;
}

export async function locateSale(store: Store, saleId: string): Promise<Scope | undefined> {
  const locator = await saleLocatorEntity.get(store, 'bySale', saleId);
  return locator ? { accountId: locator.accountId, mode: locator.mode } : undefined;
}

/** A receipt token of this release: the sale id (24 hex) and the receipt's secret (32 letters and digits). */
const RECEIPT_TOKEN = /^([0-9a-f]{24})([A-Za-z0-9]{32})$/;
export const receiptToken = (saleId: string, secret: string) => `${saleId}${secret}`;
export const receiptSaleId = (token: string): string | undefined => RECEIPT_TOKEN.exec(token)?.[1];

/**
 * What a receipt token of this release permits: the sale's locator, when its secret is the token's
 * (compared in constant time). Undefined for any other token (a release before's: storefront/reviews
 * reads those apart).
 */
export async function receiptOfToken(store: Store, token: string): Promise<(SaleReceipt & Omit<SaleLocatorRecord, keyof SaleReceipt>) | undefined> {
  const match = RECEIPT_TOKEN.exec(token);
  if (!match) return undefined;
  const locator = await saleLocatorEntity.get(store, 'bySale', match[1]!);
  if (!locator?.receiptSecret) return undefined;
  const given = Buffer.from(match[2]!);
  const kept = Buffer.from(locator.receiptSecret);
  if (given.length !== kept.length || !timingSafeEqual(given, kept)) return undefined;
  return {
    ...locator,
    receiptSecret: locator.receiptSecret,
    productId: locator.productId ?? '',
    buyerEmail: locator.buyerEmail ?? '',
    customerId: locator.customerId ?? null,
  };
}

/** The buyer's address off a sale's receipt (an erasure); the receipt still works. */
export const receiptEmailErasure = (saleId: string): TransactOp => ({
  update: saleLocatorEntity.declaration.key(saleId),
  set: { buyerEmail: '' },
  condition: 'attribute_exists(PK)',
});

/**
 * One page of sales (of one type, or all), newest first: the write shards (of the table, or of the
 * sales-by-type index) and the partition before sharding, merged in id order (store/shards.ts).
 */
export function salesPageOf(
  store: Store,
  scope: Scope,
  type: SaleRecord['type'] | undefined,
  page: { limit: number; cursor?: string },
): Promise<Page<SaleRecord>> {
  const partitions = type ? saleTypePartitions(scope, type) : salePartitions(scope);
  return mergedPage(scope, {
    list: type ? `sales:${type}` : 'sales',
    shards: partitions.length,
    limit: page.limit,
    cursor: page.cursor,
    sortKey: (sale: SaleRecord) => sale._id,
    read: queryRead(
      (shard, after, limit) =>
        type
          ? saleEntity.query(store, 'ofType', [partitions[shard]!], { limit, ...afterBound(after) })
          : saleEntity.query(store, 'ofShard', [partitions[shard]!], { limit, ...afterBound(after) }),
      (sale) => sale._id,
    ),
  });
}

/** Sales oldest first after a sale id (ids are time-ordered), one page at a time, merged from the shards. */
export async function salesPage(store: Store, scope: Scope, afterId: string, limit: number): Promise<SaleRecord[]> {
  const partitions = salePartitions(scope);
  const page = await mergeShards({
    shards: partitions.length,
    limit,
    after: afterId,
    ascending: true,
    sortKey: (sale: SaleRecord) => sale._id,
    read: queryRead(
      (shard, after, size) => saleEntity.query(store, 'afterInShard', [partitions[shard]!], { limit: size, after }),
      (sale) => sale._id,
    ),
  });
  return page.items;
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

/** A customer by id; one an earlier release wrote is moved to its write shard, where updates by key look. */
export async function getCustomer(store: Store, scope: Scope, id: string): Promise<CustomerRecord | undefined> {
  return (await customerEntity.get(store, 'byId', scope, id)) ?? customerEntity.getMoving(store, 'latest', 'byIdBefore', scope, id);
}

export async function findCustomerByEmail(store: Store, scope: Scope, email: string): Promise<CustomerRecord | undefined> {
  // A guard of the layout before shards moves to its shard, where a new customer's guard conditions look.
  const pointer = await customerEmailEntity.getMoving(store, 'byEmail', 'byEmailBefore', scope, normalizeEmail(email));
  return pointer ? customerEntity.getMoving(store, 'latest', 'byIdBefore', scope, pointer.customerId) : undefined;
}

/**
 * One page of customers, newest (or oldest) first, optionally only buyers of a product: the write
 * shards and the partition before sharding merged in id order; the product filter applies in
 * memory, so each read is one bounded query (a rare product answers a short page with a cursor).
 */
export function customersPageOf(
  store: Store,
  scope: Scope,
  filter: { productId?: string; oldestFirst?: boolean },
  page: { limit: number; cursor?: string },
): Promise<Page<CustomerRecord>> {
  const partitions = customerPartitions(scope);
  const ascending = filter.oldestFirst ?? false;
  const productId = filter.productId;
  return mergedPage(scope, {
    list: ascending ? 'customers:oldest' : 'customers',
    shards: partitions.length,
    limit: page.limit,
    cursor: page.cursor,
    ascending,
    sortKey: (customer: CustomerRecord) => customer._id,
    read: queryRead(
      (shard, after, limit) => customerEntity.query(store, 'ofShard', [partitions[shard]!], { ascending, limit, ...afterBound(after, ascending) }),
      (customer) => customer._id,
      productId ? (customer) => (customer.productIds ?? []).includes(productId) : undefined,
    ),
  });
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
    // The customer as an earlier release wrote it, had no read moved it yet.
    { delete: customerEntity.declaration.patterns.byIdBefore.key(scope, customer._id) },
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
