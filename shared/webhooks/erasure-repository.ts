import type { Scope } from '../store/keys';
import type { Store } from '../store/store';
import { attemptEntity, attemptKeyBefore, deliveryEntity } from './entities';
export { attemptPartitions, deliveryPartitions } from './entities';
import { onEitherLayout } from './repository';
import type { StoredAttempt } from './stored-attempt';

// ---- erasure of a buyer (shared/webhooks/privacy.ts): the worker only, never a request path ----

const mentioning = (fields: string[], needle: string) => ({
  expression: fields.map((_, i) => `contains(#m${i}, :needle)`).join(' OR '),
  names: Object.fromEntries(fields.map((field, i) => [`#m${i}`, field])),
  values: { ':needle': needle },
});

/** Log entries whose sent body or answer excerpt mentions `needle`, a page of one partition of `attemptPartitions` at a time (the filter runs in DynamoDB). */
export async function attemptsMentioningPage(store: Store, partition: string, needle: string, cursor: string | undefined) {
  const page = await attemptEntity.query(store, 'ofShard', [partition], { cursor, filter: mentioning(['requestBody', 'responseBodyExcerpt'], needle) });
  return { items: page.items as StoredAttempt[], cursor: page.cursor };
}

/** Rewrites a log entry's bodies where it is (its write shard, or the partition before sharding). */
export async function attemptBodiesRewrite(store: Store, scope: Scope, id: string, set: { requestBody?: string; responseBodyExcerpt?: string }) {
  const key = (await attemptEntity.get(store, 'byId', scope, id)) ? attemptEntity.declaration.key(scope, id) : attemptKeyBefore(scope, id);
  return store.update(key, { set }, { mustExist: true });
}

/** Deliveries that keep their body (tests, redeliveries, large bodies) and mention `needle`, a page of one partition of `deliveryPartitions`. */
export async function deliveriesMentioningPage(store: Store, partition: string, needle: string, cursor: string | undefined) {
  const page = await deliveryEntity.query(store, 'ofTenantMentioning', [partition], { cursor, filter: mentioning(['body'], needle) });
  return { items: page.items, cursor: page.cursor };
}

export const deliveryBodyRewrite = (store: Store, scope: Scope, id: string, body: string) =>
  onEitherLayout(
    store,
    scope,
    id,
    (key) => store.update(key, { set: { body } }, { mustExist: true }),
    () => undefined,
  );
