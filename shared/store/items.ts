import type { IndexKey, Key } from './keys';
import type { Item } from './store';

/**
 * Builds a table item from a domain record: its key, the index keys that serve its access paths,
 * the entity name and schema version (so a stream reader or a migration knows what it holds), and
 * an optional TTL in epoch seconds.
 */
export function toItem(key: Key, entity: string, record: object, options: { indexes?: IndexKey[]; expiresAt?: number; version?: number } = {}): Item {
  return {
    ...record,
    ...key,
    ...Object.assign({}, ...(options.indexes ?? [])),
    entity,
    v: options.version ?? 1,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  };
}
