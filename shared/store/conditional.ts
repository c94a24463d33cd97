/**
 * Conditional writes in one place: the "create only if the key is free" condition, and turning a
 * failed condition into what the caller means by it (a 404, a 409, "already done", "lost the
 * race"), while every other error still propagates.
 */
import { ConditionFailed, type Item, type Store, type TransactOp } from './store';

/** The condition of a create: nothing is stored under the item's key yet. */
export const KEY_IS_FREE = 'attribute_not_exists(PK)';
/** The condition of a change to a record that must still be there. */
export const KEY_EXISTS = 'attribute_exists(PK)';

export const isConditionFailed = (error: unknown): error is ConditionFailed => error instanceof ConditionFailed;

/** A transaction put that creates the item, failing the transaction when its key is taken. */
export const putNew = (item: Item): TransactOp => ({ put: item, condition: KEY_IS_FREE });

/** Creates the item if its key is free: true when this call created it, false when it was already there. */
export async function createUnique(store: Store, item: Item): Promise<boolean> {
  return onConditionFailed(
    store.put(item, { ifNotExists: true }).then(() => true),
    () => false,
  );
}

/**
 * Awaits a conditional write; when its condition fails, answers what `fallback` returns (or throws
 * what it throws). Any other error passes through unchanged.
 */
export async function onConditionFailed<T, F>(write: Promise<T> | (() => Promise<T>), fallback: (error: ConditionFailed) => F | Promise<F>): Promise<T | F> {
  try {
    return await (typeof write === 'function' ? write() : write);
  } catch (error) {
    if (error instanceof ConditionFailed) return fallback(error);
    throw error;
  }
}

/** Awaits a conditional write and throws `toError()` when its condition fails (a 404, a 409...). */
export async function failOnCondition<T>(write: Promise<T> | (() => Promise<T>), toError: (error: ConditionFailed) => Error): Promise<T> {
  return onConditionFailed(write, (error) => {
    throw toError(error);
  });
}
