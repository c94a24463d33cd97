import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { RECEIPT_CAPABILITY_ENTITY, RECEIPT_CAPABILITY_KIND, REVIEW, type ReceiptCapability, type ReviewRecord } from './records';

const REVIEW_SALE = 'REVIEW_SALE';
const REVIEWS_OF_PRODUCT = 'REVIEWS_OF_PRODUCT';

export const reviewEntity = defineEntity<ReviewRecord>()({
  entity: 'Review',
  version: 1,
  owner: 'storefront/reviews',
  key: (scope: Scope, id: string) => keys.entity(scope, REVIEW, id),
  keyArgs: ['scope', 'reviewId'],
  indexes: {
    ofProduct: {
      index: 'GSI1',
      key: (scope: Scope, productId: string, id: string) => keys.indexed('GSI1', scope, REVIEWS_OF_PRODUCT, productId, id),
      args: ['scope', 'productId', 'reviewId'],
    },
  },
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Review by id (the reviews of an exported or erased buyer)',
      key: (scope: Scope, id: string) => keys.entity(scope, REVIEW, id),
      args: ['scope', 'reviewId'],
    },
    ofTenant: { kind: 'query', summary: 'Reviews of a tenant, newest first', partition: (scope: Scope) => keys.collection(scope, REVIEW), args: ['scope'] },
    ofProduct: {
      kind: 'query',
      summary: 'Reviews of one product, newest first',
      partition: (scope: Scope, productId: string) => keys.indexPartition('GSI1', scope, REVIEWS_OF_PRODUCT, productId),
      args: ['scope', 'productId'],
    },
  },
});

/** One review per sale: the guard that makes a second submission fail. */
export const reviewOfSaleEntity = defineEntity<{ reviewId: string }>()({
  entity: 'ReviewOfSale',
  version: 1,
  owner: 'storefront/reviews',
  key: (scope: Scope, saleId: string) => keys.unique(scope, REVIEW_SALE, saleId),
  keyArgs: ['scope', 'saleId'],
  patterns: {
    bySale: {
      kind: 'get',
      summary: 'The review of a sale (the reviews of an exported or erased buyer)',
      key: (scope: Scope, saleId: string) => keys.unique(scope, REVIEW_SALE, saleId),
      args: ['scope', 'saleId'],
    },
  },
  summary: 'One review per sale',
  notes: 'written with the review; its condition is what refuses a second one',
});

/** Written by checkout (sales) per completed sale by releases before; read here to permit a review (sales keeps those of this release). */
const receiptKey = (token: string) => keys.capability(RECEIPT_CAPABILITY_KIND, token);
export const receiptEntity = defineEntity<ReceiptCapability>()({
  entity: RECEIPT_CAPABILITY_ENTITY,
  version: 1,
  owner: 'storefront/reviews',
  key: receiptKey,
  keyArgs: ['token'],
  patterns: {
    byToken: {
      kind: 'get',
      summary: 'Receipt capability (buyer review permission)',
      key: receiptKey,
      args: ['token'],
      notes: 'written per completed sale by releases before; a token of this release is read from the sale locator',
    },
  },
});
