import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { LicenseInstance, LicenseRecord } from './records';

// The licence item is keyed by its key's hash, so the public routes (validate at every start of
// the seller's app) cost one GetItem; the seller's paths go through the scoped indexes.
const licenseKey = (keyHash: string) => keys.capability('license', keyHash);
const instanceKey = (scope: Scope, licenseId: string, instanceId: string) => keys.child(scope, 'LICENSE', licenseId, 'INSTANCE', instanceId);

export const licenseEntity = defineEntity<LicenseRecord>()({
  entity: 'License',
  version: 1,
  owner: 'licenses',
  key: licenseKey,
  keyArgs: ['keyHash'],
  indexes: {
    ofTenant: { index: 'GSI1', key: (scope: Scope, id: string) => keys.indexed('GSI1', scope, 'LICENSES', 'all', id), args: ['scope', 'licenseId'] },
    ofOrder: {
      index: 'GSI2',
      key: (scope: Scope, orderId: string, id: string) => keys.indexed('GSI2', scope, 'LICENSE_ORDER', orderId, id),
      args: ['scope', 'orderId', 'licenseId'],
    },
    ofProduct: {
      index: 'GSI3',
      key: (scope: Scope, productId: string, id: string) => keys.indexed('GSI3', scope, 'LICENSE_PRODUCT', productId, id),
      args: ['scope', 'productId', 'licenseId'],
    },
  },
  patterns: {
    byKeyHash: {
      kind: 'get',
      summary: 'Licence by the hash of its key (public activate, validate, deactivate)',
      key: licenseKey,
      args: ['sha256(key)'],
      consistent: true,
    },
    ofTenant: {
      kind: 'query',
      summary: 'Licences of a tenant, newest first; by id with the id as sort prefix',
      partition: (scope: Scope) => keys.indexPartition('GSI1', scope, 'LICENSES', 'all'),
      args: ['scope'],
    },
    ofOrder: {
      kind: 'query',
      summary: 'Licences of an order (order read, refund)',
      partition: (scope: Scope, orderId: string) => keys.indexPartition('GSI2', scope, 'LICENSE_ORDER', orderId),
      args: ['scope', 'orderId'],
    },
    ofProduct: {
      kind: 'query',
      summary: 'Licences of a product, newest first',
      partition: (scope: Scope, productId: string) => keys.indexPartition('GSI3', scope, 'LICENSE_PRODUCT', productId),
      args: ['scope', 'productId'],
    },
  },
});

export const licenseInstanceEntity = defineEntity<LicenseInstance>()({
  entity: 'LicenseInstance',
  version: 1,
  owner: 'licenses',
  key: instanceKey,
  keyArgs: ['scope', 'licenseId', 'instanceId'],
  patterns: {
    byId: {
      kind: 'get',
      summary: 'An activation of a licence (validate with instanceId, deactivate)',
      key: instanceKey,
      args: ['scope', 'licenseId', 'instanceId'],
    },
  },
  notes: 'at most activationLimit per licence',
});
