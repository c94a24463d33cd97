import { describe, expect, it } from 'vitest';
import type { Store } from '../../shared/store/store';
import { ENDPOINT_CACHE_MS, cachedEndpoints, forgetEndpoints } from '../../shared/webhooks/endpoint-cache';
import { SUCCESS_EXCERPT_CHARS, excerptToKeep } from '../../shared/webhooks/delivery';
import type { WebhookEndpoint } from '../../shared/webhooks/records';

const endpoint = (id: string, active = true): WebhookEndpoint => ({
  id,
  url: 'https://example.com/h',
  events: ['order.completed'],
  description: null,
  active,
  secretCiphertext: 'c',
  createdAt: '',
  updatedAt: '',
});
const scope = { accountId: 'acct1', mode: 'test' as const };

function reader(lists: WebhookEndpoint[][]) {
  let reads = 0;
  return {
    read: async () => lists[Math.min(reads++, lists.length - 1)]!,
    get reads() {
      return reads;
    },
  };
}

/** A store as the cache sees one: its `base` (the key of per-container caches) is itself. */
const aStore = () => {
  const store = {} as { base?: unknown };
  store.base = store;
  return store as Store;
};

describe('per-process endpoint copy', () => {
  it('reads once per bound, shares the read in flight, and reads again after the bound', async () => {
    const store = aStore();
    const source = reader([[endpoint('a')], [endpoint('a', false)]]);
    const [one, two] = await Promise.all([cachedEndpoints(store, scope, source.read, 1000), cachedEndpoints(store, scope, source.read, 1000)]);
    expect(source.reads).toBe(1);
    expect(one).toBe(two);
    expect((await cachedEndpoints(store, scope, source.read, 1000 + ENDPOINT_CACHE_MS - 1))[0]!.active).toBe(true);
    expect(source.reads).toBe(1);
    expect((await cachedEndpoints(store, scope, source.read, 1000 + ENDPOINT_CACHE_MS))[0]!.active).toBe(false);
    expect(source.reads).toBe(2);
  });

  it('a change drops the copy at once; other tenants and other stores keep their own', async () => {
    const store = aStore();
    const other = aStore();
    const source = reader([[endpoint('a')], [endpoint('b')]]);
    const otherScope = { accountId: 'acct1', mode: 'live' as const };
    await cachedEndpoints(store, scope, source.read, 0);
    await cachedEndpoints(store, otherScope, async () => [endpoint('live')], 0);
    await cachedEndpoints(other, scope, async () => [endpoint('other')], 0);
    forgetEndpoints(store, scope);
    expect((await cachedEndpoints(store, scope, source.read, 1))[0]!.id).toBe('b');
    expect((await cachedEndpoints(store, otherScope, source.read, 1))[0]!.id).toBe('live');
    expect((await cachedEndpoints(other, scope, source.read, 1))[0]!.id).toBe('other');
  });

  it('does not keep a failed read', async () => {
    const store = aStore();
    await expect(cachedEndpoints(store, scope, async () => Promise.reject(new Error('throttled')), 0)).rejects.toThrow('throttled');
    await new Promise((r) => setImmediate(r));
    expect(await cachedEndpoints(store, scope, async () => [endpoint('a')], 1)).toHaveLength(1);
  });
});

describe('answer excerpt kept in the log', () => {
  it('keeps 256 characters of a 2xx answer and the whole 2 KB excerpt of a failure', () => {
    const long = 'x'.repeat(2048);
    expect(excerptToKeep(long, true)).toHaveLength(SUCCESS_EXCERPT_CHARS);
    expect(excerptToKeep(long, false)).toBe(long);
    expect(excerptToKeep('{"ok":true}', true)).toBe('{"ok":true}');
    expect(excerptToKeep(null, true)).toBeNull();
  });
});
