import { toItem } from '../../store/items';
import { keys, type Scope } from '../../store/keys';
import { ConditionFailed, toRecord, type Store } from '../../store/store';
import { STRIPE, type StripePriceRecord, type StripeRef, type StripeSettingsRecord } from './records';

/** The adapter's reads and writes of its own records. */
export const refKey = (scope: Scope, specId: string) => keys.entity(scope, STRIPE.ref, specId);

export async function getRef(store: Store, scope: Scope, specId: string): Promise<StripeRef | undefined> {
  return toRecord<StripeRef>(await store.get(refKey(scope, specId), { consistent: true }));
}

/** Records the mapping (and first-seen state) once; an existing record is left as it is. */
export async function ensureRef(store: Store, scope: Scope, ref: StripeRef): Promise<StripeRef> {
  try {
    await store.put(toItem(refKey(scope, ref.specId), 'StripeRef', ref), { ifNotExists: true });
    return ref;
  } catch (error) {
    if (error instanceof ConditionFailed) return (await getRef(store, scope, ref.specId))!;
    throw error;
  }
}

/** A guarded forward move of a ref; false when the guard says the event is stale. */
export async function advanceRef(
  store: Store,
  scope: Scope,
  specId: string,
  set: Record<string, unknown>,
  condition: string,
  values: Record<string, unknown>,
): Promise<boolean> {
  try {
    await store.update(refKey(scope, specId), { set }, { condition, values, mustExist: true });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function getPrice(store: Store, scope: Scope, productId: string): Promise<StripePriceRecord | undefined> {
  return toRecord<StripePriceRecord>(await store.get(keys.entity(scope, STRIPE.price, productId), { consistent: true }));
}

export async function putPrice(store: Store, scope: Scope, record: StripePriceRecord): Promise<void> {
  await store.put(toItem(keys.entity(scope, STRIPE.price, record.productId), 'StripePrice', record));
}

const settingsKey = (scope: Scope) => keys.entity(scope, STRIPE.settings, 'stripe');

export async function getStripeSettings(store: Store, scope: Scope): Promise<StripeSettingsRecord | undefined> {
  return toRecord<StripeSettingsRecord>(await store.get(settingsKey(scope), { consistent: true }));
}

export async function putStripeSettings(store: Store, scope: Scope, record: StripeSettingsRecord): Promise<void> {
  await store.put(toItem(settingsKey(scope), 'StripeSettings', record));
}
