import { allEvents } from '../../shared/events/repository';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/platform/accounts';
import { productCreateBody } from '../../shared/catalog/schemas';
import { getActiveOffer, getActiveProduct, getOffer, getProduct, getSellable, listProducts } from '../../shared/catalog/repository';
import { copyProduct, createProduct, deleteOffer, deleteProduct, updateProduct, type CatalogCtx } from '../../shared/catalog/service';
import { createOffer } from '../../shared/catalog/offer-create';
import type { Scope } from '../../shared/store/keys';
import { createTestDeps } from '../support/store';

let ctx: CatalogCtx;

beforeAll(async () => {
  const { deps } = await createTestDeps();
  const account = await createAccount(deps.store, deps.clock, { email: 'seller@example.com' });
  ctx = { ...deps, account, scope: { accountId: account.accountId, mode: 'test' } };
});

async function outbox(scope: Scope) {
  return allEvents(ctx.store, scope);
}

describe('catalog repository and service', () => {
  it('serves the checkout: getSellable finds either kind, and forgets deleted ones', async () => {
    const product = await createProduct(ctx, productCreateBody.parse({ name: 'Ebook', price: 7 }));
    const offer = await createOffer(ctx, { name: 'Monthly', price: 3, frequency: 'monthly' });
    expect(await getSellable(ctx.store, ctx.scope, product._id)).toMatchObject({ kind: 'product', product: { _id: product._id, priceCents: 700 } });
    expect(await getSellable(ctx.store, ctx.scope, offer._id)).toMatchObject({
      kind: 'offer',
      offer: { _id: offer._id, priceCents: 300, frequency: 'monthly' },
    });
    expect(await getSellable(ctx.store, { ...ctx.scope, mode: 'live' }, product._id)).toBeUndefined();

    await deleteProduct(ctx, product._id);
    await deleteOffer(ctx, offer._id);
    expect(await getActiveProduct(ctx.store, ctx.scope, product._id)).toBeUndefined();
    expect(await getActiveOffer(ctx.store, ctx.scope, offer._id)).toBeUndefined();
    expect(await getSellable(ctx.store, ctx.scope, product._id)).toBeUndefined();
    expect(await getSellable(ctx.store, ctx.scope, offer._id)).toBeUndefined();
    // What was already sold stays resolvable: order joins, renewals of the offer's subscribers.
    expect((await getProduct(ctx.store, ctx.scope, product._id))?.deletedAt).toBeTruthy();
    expect(await getOffer(ctx.store, ctx.scope, offer._id)).toMatchObject({ name: 'Monthly', priceCents: 300, deletedAt: expect.any(String) });
    expect((await listProducts(ctx.store, ctx.scope)).map((p) => p._id)).not.toContain(product._id);
  });

  it('lets concurrent updates all land, each with exactly one product.updated event', async () => {
    const product = await createProduct(ctx, productCreateBody.parse({ name: 'Raced', price: 1 }));
    const results = await Promise.allSettled([
      updateProduct(ctx, product._id, { name: 'Raced A' }),
      updateProduct(ctx, product._id, { description: 'B' }),
      updateProduct(ctx, product._id, { price: 3 }),
    ]);
    const landed = results.filter((r) => r.status === 'fulfilled').length;
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    for (const r of refused) expect(r.reason).toMatchObject({ status: 409, code: 'CONCURRENT_UPDATE' });
    const events = (await outbox(ctx.scope)).filter((e) => e.data._id === product._id && e.type === 'product.updated');
    expect(events).toHaveLength(landed);
    const final = (await getProduct(ctx.store, ctx.scope, product._id))!;
    expect(events.at(-1)!.data.updatedAt).toBe(final.updatedAt);
    if (landed === 3) expect(final).toMatchObject({ name: 'Raced A', description: 'B', priceCents: 300 });
  });

  it('copies into live mode in one transaction with its event in the live outbox', async () => {
    const product = await createProduct(ctx, productCreateBody.parse({ name: 'Template', price: 2 }));
    const copy = await copyProduct(ctx, product._id, { testMode: false });
    const live = { ...ctx.scope, mode: 'live' as const };
    expect(await getProduct(ctx.store, live, copy._id)).toMatchObject({ name: 'Template (copy)', published: false, testMode: false });
    expect((await outbox(live)).filter((e) => e.data._id === copy._id).map((e) => e.type)).toEqual(['product.created']);
  });
});
