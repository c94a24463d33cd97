/**
 * Every query and write builder of discounts. Services compose the returned TransactOps into one
 * transaction; nothing outside this file builds a discount key.
 */
import { keys, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { KEY_EXISTS, putNew } from '../../store/conditional';
import { toRecord, type Store, type TransactOp } from '../../store/store';
import { DISCOUNT, type DiscountRecord } from './records';

const DISCOUNT_CODE = 'DISCOUNT_CODE';

export const loadDiscount = async (store: Store, scope: Scope, id: string) => toRecord<DiscountRecord>(await store.get(keys.entity(scope, DISCOUNT, id)));

export const loadDiscounts = async (store: Store, scope: Scope) =>
  (await store.queryAll({ pk: keys.collection(scope, DISCOUNT) })).map((item) => toRecord<DiscountRecord>(item)!);

/** The discount id a (normalised) code points to. */
export async function findDiscountIdByCode(store: Store, scope: Scope, normalizedCode: string): Promise<string | undefined> {
  const guard = await store.get<{ discountId?: string }>(keys.unique(scope, DISCOUNT_CODE, normalizedCode));
  return guard?.discountId;
}

export const discountCodeGuardPut = (scope: Scope, normalizedCode: string, discountId: string): TransactOp =>
  putNew(toItem(keys.unique(scope, DISCOUNT_CODE, normalizedCode), 'DiscountCode', { discountId }));

export const discountCodeGuardDelete = (scope: Scope, normalizedCode: string, discountId: string): TransactOp => ({
  delete: keys.unique(scope, DISCOUNT_CODE, normalizedCode),
  condition: '#d = :d',
  names: { '#d': 'discountId' },
  values: { ':d': discountId },
});

export const discountPut = (scope: Scope, discount: DiscountRecord): TransactOp => putNew(toItem(keys.entity(scope, DISCOUNT, discount._id), 'Discount', discount));

/** Sets the named fields only, so a concurrent redemption count is never overwritten. */
export const discountUpdate = (scope: Scope, id: string, set: Record<string, unknown>, remove: string[]): TransactOp => ({
  update: keys.entity(scope, DISCOUNT, id),
  set,
  remove,
  condition: KEY_EXISTS,
});

export const discountDelete = (scope: Scope, id: string): TransactOp => ({ delete: keys.entity(scope, DISCOUNT, id), condition: KEY_EXISTS });

/** Counts one use; fails the surrounding transaction once the code has reached maxUses. */
export const discountRedemption = (scope: Scope, id: string): TransactOp => ({
  update: keys.entity(scope, DISCOUNT, id),
  set: {},
  add: { uses: 1 },
  condition: 'attribute_exists(PK) AND (attribute_not_exists(#max) OR #uses < #max)',
  names: { '#max': 'maxUses', '#uses': 'uses' },
});
