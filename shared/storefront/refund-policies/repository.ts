/** Refund policies; nothing outside this file builds their keys. */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { toRecord, type Store } from '../../store/store';
import { REFUND_POLICY, type RefundPolicyRecord } from './records';

export const loadRefundPolicy = async (store: Store, scope: Scope, id: string) => toRecord<RefundPolicyRecord>(await store.get(keys.entity(scope, REFUND_POLICY, id)));
export const loadRefundPolicies = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, REFUND_POLICY) })).map((i) => toRecord<RefundPolicyRecord>(i)!);
export const insertRefundPolicy = (store: Store, scope: Scope, policy: RefundPolicyRecord) =>
  store.put(toItem(keys.entity(scope, REFUND_POLICY, policy._id), 'RefundPolicy', policy), { ifNotExists: true });
