/**
 * Stands in for `mnemonist/lru-cache` in the Lambda bundles (an esbuild alias in
 * esbuild-options.ts). The SDK's endpoint-discovery cache is its only user: every client that
 * supports discovery (DynamoDB) builds one, and its middleware looks an endpoint up on every
 * request, so it is a real cache, not a stub. mnemonist's LRUCache and the iterator library under
 * it are ~7 KiB of every function; a Map keeps insertion order, which is all an LRU needs. Only
 * the part of the API the SDK calls (constructed with a capacity alone; get, set, has, peek,
 * clear) exists; test/unit/lambda-lru-cache.test.ts checks it against mnemonist's.
 */
export default class LRUCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {
    if (!(capacity > 0)) throw new Error('LRUCache: capacity should be a positive number');
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value without making it the most recently used. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Sets the value as the most recently used, evicting the least recently used when full. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    return this;
  }

  clear(): void {
    this.entries.clear();
  }
}
