import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';
import type { ErasureRecord, ExportLinkRecord } from './records';

const ERASURE = 'ERASURE';
const erasureKey = (scope: Scope, customerId: string) => keys.entity(scope, ERASURE, customerId);

/** One erasure per customer: the record's id is the customer id, so a second request finds the first. */
export const erasureEntity = defineEntity<ErasureRecord>()({
  entity: 'Erasure',
  version: 1,
  owner: 'privacy',
  key: erasureKey,
  keyArgs: ['scope', 'customerId'],
  patterns: {
    byCustomer: { kind: 'get', summary: 'Erasure of a customer (its progress)', key: erasureKey, args: ['scope', 'customerId'], consistent: true },
  },
});

/** A buyer export's download link: the unguessable token is the key (like a signed download). */
const exportLinkKey = (token: string) => keys.capability('customer-export', token);
export const exportLinkEntity = defineEntity<ExportLinkRecord>()({
  entity: 'CustomerExportLink',
  version: 1,
  owner: 'privacy',
  key: exportLinkKey,
  keyArgs: ['token'],
  patterns: {
    byToken: {
      kind: 'get',
      summary: 'Buyer export download by its token (GET /customer-exports/{token})',
      key: exportLinkKey,
      args: ['token'],
      consistent: true,
    },
  },
});
