import { countProductsByRefundPolicy } from '../../catalog/service';
import type { Deps } from '../../platform/context';
import { notFound } from '../../platform/errors';
import { objectId } from '../../platform/ids';
import type { Scope } from '../../store/keys';
import type { RefundPolicyRecord } from './records';
import { insertRefundPolicy, loadRefundPolicies, loadRefundPolicy } from './repository';

export type RefundPolicyView = RefundPolicyRecord & { appliedTo: number };

/** `text` is accepted and shown as an alias of `description`. */
export const presentRefundPolicy = (p: RefundPolicyView) => ({
  _id: p._id,
  name: p.name,
  days: p.days,
  description: p.description,
  text: p.description,
  appliedTo: p.appliedTo,
  testMode: p.testMode,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** Records a policy that products can point to; it refunds nothing. */
export async function createRefundPolicy(
  deps: Deps,
  scope: Scope,
  input: { name: string; days: number; description?: string; text?: string },
): Promise<RefundPolicyView> {
  const now = deps.clock.now().toISOString();
  const policy: RefundPolicyRecord = {
    _id: objectId(deps.clock),
    name: input.name,
    days: input.days,
    description: input.description ?? input.text ?? '',
    testMode: scope.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
  await insertRefundPolicy(deps.store, scope, policy);
  return { ...policy, appliedTo: 0 };
}

export async function listRefundPolicies(deps: Deps, scope: Scope): Promise<RefundPolicyView[]> {
  const [policies, counts] = await Promise.all([loadRefundPolicies(deps.store, scope), countProductsByRefundPolicy(deps, scope)]);
  return policies.map((p) => ({ ...p, appliedTo: counts.get(p._id) ?? 0 }));
}

export async function getRefundPolicy(deps: Deps, scope: Scope, id: string): Promise<RefundPolicyView> {
  const policy = await loadRefundPolicy(deps.store, scope, id);
  if (!policy) throw notFound('Refund policy');
  const counts = await countProductsByRefundPolicy(deps, scope);
  return { ...policy, appliedTo: counts.get(policy._id) ?? 0 };
}
