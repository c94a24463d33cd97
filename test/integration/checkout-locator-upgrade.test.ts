import { describe, expect, it } from 'vitest';
import { checkoutLocatorEntity } from '../../shared/checkout/entities';
import type { CheckoutSessionRecord } from '../../shared/checkout/records';
import { sessionPut } from '../../shared/checkout/repository';
import { locateSessionById } from '../../shared/checkout/service';
import { objectId } from '../../shared/platform/ids';
import { createTestDeps } from '../support/store';

/**
 * Sessions no longer get a scope-free locator of their own (the sandbox processor keeps the local
 * pay route's pointer with its hosted checkout). A session an earlier release opened still has
 * its locator, and the pay route still finds it through it; a tenant given by the caller is the
 * only one searched.
 */
describe('checkout sessions across the locator change', () => {
  it('finds a session of the release before by its locator, and a new one only in the tenant given', async () => {
    const { deps, clock, store } = await createTestDeps();
    const scope = { accountId: 'a'.repeat(24), mode: 'test' as const };
    const session = (id: string) =>
      ({ _id: id, productId: 'p', kind: 'one_time', processorCheckoutId: `cs_${id}`, status: 'open', amountCents: 100 }) as unknown as CheckoutSessionRecord;

    const old = objectId(clock);
    await store.put(sessionPut(scope, session(old)));
    await store.put(checkoutLocatorEntity.item(checkoutLocatorEntity.declaration.key(old), { ...scope, processorCheckoutId: `cs_${old}` }));
    expect(await locateSessionById(deps, old)).toMatchObject({ scope, processorCheckoutId: `cs_${old}`, session: { _id: old } });

    const fresh = objectId(clock);
    await store.put(sessionPut(scope, session(fresh)));
    expect(await locateSessionById(deps, fresh)).toBeUndefined();
    expect(await locateSessionById(deps, fresh, scope)).toMatchObject({ scope, processorCheckoutId: `cs_${fresh}` });
    expect(await locateSessionById(deps, fresh, { ...scope, mode: 'live' })).toBeUndefined();
    expect(await locateSessionById(deps, fresh, { accountId: 'b'.repeat(24), mode: 'test' })).toBeUndefined();
  });
});
