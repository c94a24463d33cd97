/**
 * Every query and write builder of discounts. Services compose the returned TransactOps into one
 * transaction; keys come from the declarations in entities.ts.
 */
import { KEY_EXISTS, putNew } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { Store, TransactOp } from '../../store/store';
import { discountCodeEntity, discountEntity } from './entities';
import type { DiscountRecord } from './records';

const discountKey = discountEntity.declaration.key;
const codeKey = discountCodeEntity.declaration.key;

export const loadDiscount = (store: Store, scope: Scope, id: string) => discountEntity.get(store, 'byId', scope, id);

export const loadDiscounts = (store: Store, scope: Scope) => discountEntity.queryAll(store, 'ofTenant', [scope]);

/** The discount id a (normalised) code points to. */
export async function findDiscountIdByCode(store: Store, scope: Scope, normalizedCode: string): Promise<string | undefined> {
  return (await discountCodeEntity.get(store, 'byCode', scope, normalizedCode))?.discountId;
}

export const discountCodeGuardPut = (scope: Scope, normalizedCode: string, discountId: string): TransactOp =>
  putNew(discountCodeEntity.item(codeKey(scope, normalizedCode), { discountId }));

export const discountCodeGuardDelete = (scope: Scope, normalizedCode: string, discountId: string): TransactOp => ({
  delete: codeKey(scope, normalizedCode),
  condition: '#d = :d',
  names: { '#d': 'discountId' },
  values: { ':d': discountId },
});

export const discountPut = (scope: Scope, discount: DiscountRecord): TransactOp => putNew(discountEntity.item(discountKey(scope, discount._id), discount));

/** Sets the named fields only, so a concurrent redemption count is never overwritten. */
export const discountUpdate = (scope: Scope, id: string, set: Record<string, unknown>, remove: string[]): TransactOp => ({
  update: discountKey(scope, id),
  set,
  remove,
  condition: KEY_EXISTS,
});

export const discountDelete = (scope: Scope, id: string): TransactOp => ({ delete: discountKey(scope, id), condition: KEY_EXISTS });

/** Counts one use; fails the surrounding transaction once the code has reached maxUses. */
export const discountRedemption = (scope: Scope, id: string): TransactOp => ({
  update: discountKey(scope, id),
  set: {},
  add: { uses: 1 },
  condition: 'attribute_exists(PK) AND (attribute_not_exists(#max) OR #uses < #max)',
  names: { '#max': 'maxUses', '#uses': 'uses' },
});
