import type { Key } from './keys';
import type { IndexName } from './table';

/** The store's vocabulary: items, batch and transaction writes, query options and pages. */
export type Item = Record<string, unknown>;
/** One request of a BatchWriteItem call. */
export type BatchWriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };

/** A write inside a transaction. Conditions are DynamoDB condition expressions. */
export type TransactOp =
  | { put: Item; condition?: string; names?: Record<string, string>; values?: Record<string, unknown> }
  | {
      update: Key;
      set: Record<string, unknown>;
      remove?: string[];
      add?: Record<string, number>;
      condition?: string;
      names?: Record<string, string>;
      values?: Record<string, unknown>;
    }
  | { delete: Key; condition?: string; names?: Record<string, string>; values?: Record<string, unknown> }
  | { check: Key; condition: string; names?: Record<string, string>; values?: Record<string, unknown> };

export interface QueryOptions {
  /** The partition to read: a string built by keys.ts. */
  pk: string;
  index?: IndexName;
  beginsWith?: string;
  between?: [string, string];
  /** Sort key strictly greater / lower than (for cursors over time-ordered ids). */
  after?: string;
  before?: string;
  limit?: number;
  /** Newest first by default: ids are time-ordered. */
  ascending?: boolean;
  cursor?: string;
  filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
  /** Strongly consistent read (table only; twice the read units). */
  consistent?: boolean;
}

export interface QueryPage<T> {
  items: T[];
  /** Opaque cursor for the next page; undefined on the last page. */
  cursor?: string;
}

/**
 * A request-scoped companion of the store's writes: writes that must commit together with
 * whatever the request changes (the activity log entry of an API write) without every repository
 * having to pass them along. The store adds `pending()` to the next transaction it runs and tells
 * the companion when that transaction committed; single-item writes only report that they wrote.
 * It travels with the request's view of the store (`Store.forRequest`), not in AsyncLocalStorage:
 * on Node 20 and 22 one used AsyncLocalStorage puts a hook on every promise of the process, a
 * visible share of a read's CPU (docs/performance.md, issue 43).
 */
export interface WriteCompanion {
  /** Writes to add to the next transaction (given its own writes); empty once they committed. */
  pending(ops: TransactOp[]): TransactOp[];
  /** The transaction carrying `pending()` committed. */
  committed(): void;
  /** A write outside any carrying transaction committed. */
  wrote(): void;
}
