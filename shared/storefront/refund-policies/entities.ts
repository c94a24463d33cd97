import { defineEntity } from '../../store/entity';
import { keys, type Scope } from '../../store/keys';
import { REFUND_POLICY, type RefundPolicyRecord } from './records';

const policyKey = (scope: Scope, id: string) => keys.entity(scope, REFUND_POLICY, id);

export const refundPolicyEntity = defineEntity<RefundPolicyRecord>()({
  entity: 'RefundPolicy',
  version: 1,
  owner: 'storefront/refund-policies',
  key: policyKey,
  keyArgs: ['scope', 'id'],
  patterns: {
    byId: { kind: 'get', summary: 'Refund policy by id (and catalog reference checks)', key: policyKey, args: ['scope', 'id'] },
    ofTenant: {
      kind: 'query',
      summary: 'Refund policies of a tenant',
      partition: (scope: Scope) => keys.collection(scope, REFUND_POLICY),
      args: ['scope'],
      notes: 'bounded per-tenant list',
    },
  },
});
