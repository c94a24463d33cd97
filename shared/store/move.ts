import { isConditionFailed } from './conditional';
import type { Key } from './keys';
import type { Item, Store } from './store';

/**
 * Reads an item across a key-layout change: at `to` (this release's key), else at `from` (where an
 * earlier release wrote it), in which case it is moved to `to` in one transaction, so the writes by
 * key that follow the read find it there. Idempotent: when a concurrent reader moved it first, this
 * one reads the result. Index keys move as they are (lists read the old index partitions too until
 * the record's next write rewrites them).
 */
export async function readMoving(store: Store, to: Key, from: Key): Promise<Item | undefined> {
  const found = await store.get(to, { consistent: true });
  if (found) return found;
  const old = await store.get(from, { consistent: true });
  if (!old) return undefined;
  try {
    await store.transact([
      { put: { ...old, ...to }, condition: 'attribute_not_exists(PK)' },
      { delete: from, condition: 'attribute_exists(PK)' },
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    return store.get(to, { consistent: true });
  }
  return { ...old, ...to };
}
