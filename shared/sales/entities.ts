import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import { CUSTOMER, SALE, type CustomerRecord, type SaleRecord } from './records';

const CUSTOMER_EMAIL = 'CUSTOMER_EMAIL';
const PAYMENT = 'PAYMENT';
const SALES_BY_TYPE = 'SALES_BY_TYPE';
const SUBSCRIBER_SALES = 'SUBSCRIBER_SALES';
const CUSTOMER_SALES = 'CUSTOMER_SALES';
/** Scope-free pointer from a sale id to its tenant, for the local control API. */
export const SALE_LOCATOR = 'sale';

// Sales and customers are written with every checkout: write-sharded by their id (store/shards.ts),
// as is the sales-by-type index. Lists merge the shards and the partition an earlier release wrote
// (`…Partitions`); a record of that release is moved to its shard when read by id (getMoving).
const saleKey = (scope: Scope, id: string) => keys.sharded(scope, SALE, id);
const customerKey = (scope: Scope, id: string) => keys.sharded(scope, CUSTOMER, id);
const saleKeyBefore = (scope: Scope, id: string) => keys.entity(scope, SALE, id);
const customerKeyBefore = (scope: Scope, id: string) => keys.entity(scope, CUSTOMER, id);
/** The partitions a sale list merges: every write shard, then the partition before sharding. */
export const salePartitions = (scope: Scope) => [...keys.shards(scope, SALE), keys.collection(scope, SALE)];
export const customerPartitions = (scope: Scope) => [...keys.shards(scope, CUSTOMER), keys.collection(scope, CUSTOMER)];
/** The partitions of the sales-by-type index: its write shards, then the unsharded one before them. */
export const saleTypePartitions = (scope: Scope, type: string) => [
  ...keys.indexShards('GSI1', scope, SALES_BY_TYPE, type).map((p) => p.pk),
  keys.indexPartition('GSI1', scope, SALES_BY_TYPE, type).pk,
];
// The two guards are written with every sale: write-sharded by their value (store/shards.ts); a
// guard of an earlier release (one partition per tenant) is moved to its shard when read.
const paymentKey = (scope: Scope, paymentId: string) => keys.sharded(scope, `U#${PAYMENT}`, paymentId);
const customerEmailKey = (scope: Scope, email: string) => keys.sharded(scope, `U#${CUSTOMER_EMAIL}`, email);
const paymentKeyBefore = (scope: Scope, paymentId: string) => keys.unique(scope, PAYMENT, paymentId);
export const customerEmailKeyBefore = (scope: Scope, email: string) => keys.unique(scope, CUSTOMER_EMAIL, email);
const saleLocatorKey = (saleId: string) => keys.capability(SALE_LOCATOR, saleId);

export const saleEntity = defineEntity<SaleRecord>()({
  entity: 'Sale',
  version: 1,
  owner: 'sales',
  key: saleKey,
  keyArgs: ['scope', 'saleId'],
  indexes: {
    ofType: {
      index: 'GSI1',
      key: (scope: Scope, type: string, id: string) => keys.shardedIndexed('GSI1', scope, SALES_BY_TYPE, type, id, id),
      args: ['scope', 'type', 'saleId'],
    },
    ofSubscriber: {
      index: 'GSI2',
      key: (scope: Scope, subscriberId: string, id: string) => keys.indexed('GSI2', scope, SUBSCRIBER_SALES, subscriberId, id),
      args: ['scope', 'subscriberId', 'saleId'],
    },
    ofCustomer: {
      index: 'GSI3',
      key: (scope: Scope, customerId: string, id: string) => keys.indexed('GSI3', scope, CUSTOMER_SALES, customerId, id),
      args: ['scope', 'customerId', 'saleId'],
    },
  },
  patterns: {
    byId: { kind: 'get', summary: 'Sale by id', key: saleKey, args: ['scope', 'saleId'], notes: 'write shard of the id' },
    byIdBefore: {
      kind: 'get',
      summary: 'Sale written before write shards (moved to its shard when read)',
      key: saleKeyBefore,
      args: ['scope', 'saleId'],
      consistent: true,
    },
    ofShard: {
      kind: 'query',
      summary: 'Sales, newest first, one partition of salePartitions (lists merge them in id order)',
      partition: (partition: string) => partition,
      args: ['<scope>#SALE[#<shard>]'],
      condition: 'SK < <cursor id>',
    },
    afterInShard: {
      kind: 'query',
      summary: 'Sales after a sale id, one partition of salePartitions (a backfill merges them in id order)',
      partition: (partition: string) => partition,
      args: ['<scope>#SALE[#<shard>]'],
      order: 'oldest first',
      condition: 'SK > <afterId>',
    },
    ofType: {
      kind: 'query',
      summary: 'Sales of one type (orders = one_time, payments?type=), one partition of saleTypePartitions (merged in id order)',
      partition: (pk: string) => ({ index: 'GSI1' as const, pk }),
      args: ['<scope>#SALES_BY_TYPE#<type>[#<shard>]'],
      condition: 'GSI1SK < <cursor id>',
    },
    ofCustomer: {
      kind: 'query',
      summary: "Sales of a customer, one page at a time (a buyer's export and erasure)",
      partition: (scope: Scope, customerId: string) => keys.indexPartition('GSI3', scope, CUSTOMER_SALES, customerId),
      args: ['scope', 'customerId'],
      notes: 'sales written before the index existed are not in it',
    },
    ofSubscriber: {
      kind: 'query',
      summary: 'Sales of a subscriber (payments history)',
      partition: (scope: Scope, subscriberId: string) => keys.indexPartition('GSI2', scope, SUBSCRIBER_SALES, subscriberId),
      args: ['scope', 'subscriberId'],
    },
  },
});

/** The processor payment id of a sale (refunds, disputes); a second sale for one payment fails its transaction. */
export const paymentPointerEntity = defineEntity<{ saleId: string }>()({
  entity: 'PaymentPointer',
  version: 1,
  owner: 'sales',
  key: paymentKey,
  keyArgs: ['scope', 'pay_id'],
  patterns: {
    byPayment: {
      kind: 'get',
      summary: 'Sale by processor payment id (refunds, disputes)',
      key: paymentKey,
      args: ['scope', 'pay_id'],
      consistent: true,
      notes: 'holds saleId; write shard of the payment id',
    },
    byPaymentBefore: {
      kind: 'get',
      summary: 'Payment pointer written before write shards (moved to its shard when read)',
      key: paymentKeyBefore,
      args: ['scope', 'pay_id'],
      consistent: true,
    },
  },
});

/**
 * The scope-free record of a sale: its tenant (the local control API finds a sale by id alone) and
 * the receipt capability (what a receipt token permits: one review, the survey, the invoice). A
 * receipt token is the sale id followed by `receiptSecret`, so one item serves both; the receipts
 * of releases before live apart, under their random token (storefront/reviews).
 */
export interface SaleLocatorRecord {
  accountId: string;
  mode: Scope['mode'];
  saleId: string;
  receiptSecret?: string;
  productId?: string;
  buyerEmail?: string;
  customerId?: string | null;
}

export const saleLocatorEntity = defineEntity<SaleLocatorRecord>()({
  entity: 'SaleLocator',
  version: 1,
  owner: 'sales',
  key: saleLocatorKey,
  keyArgs: ['saleId'],
  patterns: {
    bySale: {
      kind: 'get',
      summary: 'Sale locator and receipt capability (local control API; a receipt token is the sale id and its secret)',
      key: saleLocatorKey,
      args: ['saleId'],
      notes: 'holds accountId, mode and the receipt: secret, product, buyer',
    },
  },
});

export const customerEntity = defineEntity<CustomerRecord>()({
  entity: 'Customer',
  version: 1,
  owner: 'sales',
  key: customerKey,
  keyArgs: ['scope', 'customerId'],
  patterns: {
    byId: { kind: 'get', summary: 'Customer by id', key: customerKey, args: ['scope', 'customerId'], notes: 'write shard of the id' },
    latest: {
      kind: 'get',
      summary: 'Customer by id, read consistently (after the email pointer)',
      key: customerKey,
      args: ['scope', 'customerId'],
      consistent: true,
    },
    byIdBefore: {
      kind: 'get',
      summary: 'Customer written before write shards (moved to its shard when read)',
      key: customerKeyBefore,
      args: ['scope', 'customerId'],
      consistent: true,
    },
    ofShard: {
      kind: 'query',
      summary: 'Customers, newest (or oldest) first, one partition of customerPartitions (lists merge them in id order)',
      partition: (partition: string) => partition,
      args: ['<scope>#CUSTOMER[#<shard>]'],
      condition: 'SK beyond <cursor id>; product filtered in memory',
    },
  },
});

/** One customer per email: the guard fails the transaction of a second customer with the same email. */
export const customerEmailEntity = defineEntity<{ customerId: string }>()({
  entity: 'CustomerEmail',
  version: 1,
  owner: 'sales',
  key: customerEmailKey,
  keyArgs: ['scope', 'lower(email)'],
  patterns: {
    byEmail: {
      kind: 'get',
      summary: 'Customer by email / one customer per email',
      key: customerEmailKey,
      args: ['scope', 'lower(email)'],
      consistent: true,
      notes: 'holds customerId; write shard of the email',
    },
    byEmailBefore: {
      kind: 'get',
      summary: 'Customer email guard written before write shards (moved to its shard when read)',
      key: customerEmailKeyBefore,
      args: ['scope', 'lower(email)'],
      consistent: true,
    },
  },
});
