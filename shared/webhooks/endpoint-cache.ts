import type { Store } from '../store/store';
import type { Scope } from '../store/keys';
import type { WebhookEndpoint } from './records';

/**
 * How long a worker or a fan-out goes on using the endpoint list it read. Every delivery needs
 * its endpoint (URL, secret, active flag, events); reading it each time cost a read unit per
 * delivery and one store round trip in front of every HTTP call. In the process that changes an
 * endpoint (the local runtime, a test) the change drops the copy at once; another process (the
 * API's Lambda while the worker's runs) sees it within this bound: a disabled or deleted endpoint
 * may still be sent events committed up to 1 s after the change, and a rotated secret may sign
 * for up to 1 s more. A retry or any later delivery reads the change.
 */
export const ENDPOINT_CACHE_MS = 1000;

interface Cached {
  at: number;
  endpoints: Promise<WebhookEndpoint[]>;
}

// Per store (one per runtime or table), so two runtimes in one process never share copies.
const cache = new WeakMap<Store, Map<string, Cached>>();
const scopeKey = (scope: Scope) => `${scope.accountId}#${scope.mode}`;

/**
 * The tenant's endpoints, read at most once per `ENDPOINT_CACHE_MS` per process; concurrent
 * callers share the one read in flight. `nowMs` is wall time of this process (not the domain
 * clock: the bound is about real staleness, and a test's frozen clock must not freeze the cache).
 */
export async function cachedEndpoints(
  store: Store,
  scope: Scope,
  read: () => Promise<WebhookEndpoint[]>,
  nowMs = performance.now(),
): Promise<WebhookEndpoint[]> {
  let perStore = cache.get(store.base);
  if (!perStore) {
    perStore = new Map();
    cache.set(store.base, perStore);
  }
  const key = scopeKey(scope);
  const hit = perStore.get(key);
  if (hit && nowMs - hit.at < ENDPOINT_CACHE_MS) return hit.endpoints;
  const entry: Cached = { at: nowMs, endpoints: read() };
  perStore.set(key, entry);
  // A failed read is not kept: the next caller reads again.
  entry.endpoints.catch(() => perStore.get(key) === entry && perStore.delete(key));
  if (perStore.size > 5000) perStore.clear();
  return entry.endpoints;
}

/** Drops the copy of this tenant's endpoints (called by every change to an endpoint). */
export function forgetEndpoints(store: Store, scope: Scope): void {
  cache.get(store.base)?.delete(scopeKey(scope));
}
