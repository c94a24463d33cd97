import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { UPSELL, type UpsellRecord } from './records';

const upsellKey = (scope: Scope, id: string) => keys.entity(scope, UPSELL, id);

export const upsellEntity = defineEntity<UpsellRecord>()({
  entity: 'Upsell',
  version: 1,
  owner: 'storefront/upsells',
  key: upsellKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Upsell by id', key: upsellKey, args: ['scope', 'id'] },
    ofTenant: {
      kind: 'query',
      summary: 'Upsells of a tenant',
      partition: (scope: Scope) => keys.collection(scope, UPSELL),
      args: ['scope'],
      notes: 'bounded per-tenant list',
    },
  },
});
