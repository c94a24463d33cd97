/** Refund policies; keys come from entities.ts. */
import type { Scope } from '../../store/keys';
import type { Store } from '../../store/store';
import { refundPolicyEntity } from './entities';
import type { RefundPolicyRecord } from './records';

export const loadRefundPolicy = (store: Store, scope: Scope, id: string) => refundPolicyEntity.get(store, 'byId', scope, id);
export const loadRefundPolicies = (store: Store, scope: Scope) => refundPolicyEntity.queryAll(store, 'ofTenant', [scope]);
export const insertRefundPolicy = (store: Store, scope: Scope, policy: RefundPolicyRecord) =>
  store.put(refundPolicyEntity.item(refundPolicyEntity.declaration.key(scope, policy._id), policy), { ifNotExists: true });
