import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import { OFFER, PRODUCT, type OfferRecord, type ProductLocator, type ProductRecord } from './records';

// Products and offers each live in one partition per tenant and mode with the time-ordered id as
// sort key, so a descending query is newest first. Deleted ones stay (deletedAt) for history.
const productKey = (scope: Scope, id: string) => keys.entity(scope, PRODUCT, id);
const offerKey = (scope: Scope, id: string) => keys.entity(scope, OFFER, id);

export const productEntity = defineEntity<ProductRecord>()({
  entity: 'Product',
  version: 1,
  owner: 'catalog',
  key: productKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Product by id (checkout, joins, catalog API)',
      key: productKey,
      args: ['scope', 'id'],
      notes: 'deleted ones stay with deletedAt set; the catalog API and getSellable treat them as missing',
    },
    live: {
      kind: 'query',
      summary: 'Products of a tenant and mode, newest first',
      partition: (scope: Scope) => keys.collection(scope, PRODUCT),
      args: ['scope'],
      condition: 'filter attribute_not_exists(deletedAt)',
      notes: 'bounded per-tenant list; also read for copy-name de-duplication',
    },
    withRefundPolicy: {
      kind: 'query',
      summary: 'Products using a refund policy (appliedTo)',
      partition: (scope: Scope) => keys.collection(scope, PRODUCT),
      args: ['scope'],
      condition: 'filter attribute_exists(refundPolicyId) AND attribute_not_exists(deletedAt)',
      notes: 'bounded per-tenant query; counted in memory',
    },
  },
});

export const offerEntity = defineEntity<OfferRecord>()({
  entity: 'Offer',
  version: 1,
  owner: 'catalog',
  key: offerKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'Subscription offer by id (checkout, joins, catalog API)',
      key: offerKey,
      args: ['scope', 'id'],
      notes: 'deleted ones stay with deletedAt set; the catalog API and getSellable treat them as missing',
    },
    live: {
      kind: 'query',
      summary: 'Subscription offers of a tenant and mode, newest first',
      partition: (scope: Scope) => keys.collection(scope, OFFER),
      args: ['scope'],
      condition: 'filter attribute_not_exists(deletedAt)',
      notes: 'bounded per-tenant list',
    },
  },
});

const locatorKey = (productId: string) => keys.capability('product', productId);

/**
 * Scope-free pointer from a product id to its account and mode, written with the product: the
 * public buy link (GET /buy/{productId}) names only the product.
 */
export const productLocatorEntity = defineEntity<ProductLocator>()({
  entity: 'ProductLocator',
  version: 1,
  owner: 'catalog',
  key: locatorKey,
  keyArgs: ['productId'],
  patterns: {
    byProduct: { kind: 'get', summary: 'Account and mode of a product (public buy link)', key: locatorKey, args: ['productId'] },
  },
});
