import { newEvent, outboxPut } from '../platform/events';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, conflict, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import { copyName } from './copy-name';
import { missingImageIds } from '../storefront/images/references';
import { refundPolicyExists } from '../storefront/refund-policies';
import type { OfferRecord, ProductRecord } from './records';
import {
  getActiveOffer,
  getActiveProduct,
  locateProduct,
  getOffer,
  getProduct,
  getSellable,
  listOffers,
  listProducts,
  listProductsWithRefundPolicy,
  offerWrites,
  productWrites,
} from './repository';
import { buildProduct, mergeOffer, mergeProduct, productProblem, sameView, toOfferView, toProductView, type NewRecordMeta } from './rules';
import type { OfferUpdateInput, OfferView, ProductCreateInput, ProductUpdateInput, ProductView } from './schemas';

/** What catalog services need: the tenant, its account and the ports. No HTTP. */
export type CatalogCtx = Deps & { scope: Scope; account: Account };

const MAX_UPDATE_ATTEMPTS = 3;

// ---- reads for other capabilities (checkout, sales, subscriptions, credits) ----

/**
 * The stored product, deleted ones included (they carry `deletedAt`): for joins and for work on
 * what was already sold (orders, credit balances). To decide whether it can be sold, use
 * lookupSellable.
 */
export const lookupProduct = (deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<ProductRecord | undefined> => getProduct(deps.store, scope, id);

/** The stored offer, deleted ones included: subscribers of a deleted offer keep renewing. */
export const lookupOffer = (deps: Pick<Deps, 'store'>, scope: Scope, id: string): Promise<OfferRecord | undefined> => getOffer(deps.store, scope, id);

/** The account and mode a product id belongs to (the public buy link names only the product). */
export const productScope = async (deps: Pick<Deps, 'store'>, productId: string): Promise<Scope | undefined> => {
  const located = await locateProduct(deps.store, productId);
  return located ? { accountId: located.accountId, mode: located.mode } : undefined;
};

/** What a checkout may sell under an id: a product or an offer that is not deleted. */
export const lookupSellable = (deps: Pick<Deps, 'store'>, scope: Scope, id: string) => getSellable(deps.store, scope, id);

export function meta(ctx: CatalogCtx, scope: Scope = ctx.scope): NewRecordMeta {
  return { id: objectId(ctx.clock), currency: ctx.account.currency || 'USD', testMode: scope.mode === 'test', now: ctx.clock.now().toISOString() };
}

/**
 * A product or offer may only point at refund policies and images of its own tenant and mode.
 * Only references the change adds are checked: an image deleted later does not block an
 * unrelated edit.
 */
export async function checkReferences(
  ctx: CatalogCtx,
  refs: { refundPolicyId?: string | null; imageIds?: string[] },
  current?: { refundPolicyId?: string | null; imageIds?: string[] },
) {
  if (refs.refundPolicyId && refs.refundPolicyId !== current?.refundPolicyId && !(await refundPolicyExists(ctx, ctx.scope, refs.refundPolicyId))) {
    throw badRequest(`refundPolicyId: refund policy ${refs.refundPolicyId} not found`, { field: 'refundPolicyId' });
  }
  if (refs.imageIds) {
    const added = refs.imageIds.filter((id) => !(current?.imageIds ?? []).includes(id));
    const missing = await missingImageIds(ctx, ctx.scope, added);
    if (missing.length) {
      const index = refs.imageIds.indexOf(missing[0]!);
      throw badRequest(`imageIds.${index}: image ${missing[0]} not found`, { field: `imageIds.${index}` });
    }
  }
}

function throwProblem(problem: { field: string; message: string } | undefined) {
  if (problem) throw badRequest(problem.message, { field: problem.field });
}

// The two kinds share one id space and the checkout takes either, so a caller easily asks the
// wrong path; the 404 says where the record is. Only the caller's own scope is looked at, so this
// reveals nothing about other tenants or the other mode.
async function productMissing(ctx: CatalogCtx, id: string): Promise<ApiError> {
  if (await getActiveOffer(ctx.store, ctx.scope, id)) {
    return new ApiError(404, `Product not found: ${id} is a subscription offer; use /subscriptions/${id}`, { code: 'WRONG_KIND' });
  }
  return notFound('Product');
}

async function offerMissing(ctx: CatalogCtx, id: string): Promise<ApiError> {
  if (await getActiveProduct(ctx.store, ctx.scope, id)) {
    return new ApiError(404, `Subscription offer not found: ${id} is a one-time product; use /products/${id}`, { code: 'WRONG_KIND' });
  }
  return notFound('Subscription offer');
}

// ---- products ----

export async function listProductViews(ctx: CatalogCtx): Promise<ProductView[]> {
  return (await listProducts(ctx.store, ctx.scope)).map(toProductView);
}

async function requireProduct(ctx: CatalogCtx, id: string): Promise<ProductRecord> {
  const product = await getActiveProduct(ctx.store, ctx.scope, id);
  if (!product) throw await productMissing(ctx, id);
  return product;
}

export async function readProduct(ctx: CatalogCtx, id: string): Promise<ProductView> {
  return toProductView(await requireProduct(ctx, id));
}

export async function createProduct(ctx: CatalogCtx, input: ProductCreateInput): Promise<ProductView> {
  const record = buildProduct(input, meta(ctx));
  throwProblem(productProblem(record));
  await checkReferences(ctx, input);
  const view = toProductView(record);
  await ctx.store.transact([...productWrites.create(ctx.scope, record), outboxPut(newEvent(ctx.scope, ctx.clock, 'product.created', view))]);
  return view;
}

interface ProductChange {
  next: ProductRecord;
  event?: 'product.updated' | 'product.deleted';
  eventRecord?: ProductRecord;
}

/**
 * Read, merge, write guarded by the `updatedAt` that was read: a concurrent change makes the write
 * fail and the merge is done again on the fresh record, so no change is lost and each one that
 * lands emits exactly one event.
 */
async function changeProduct(
  ctx: CatalogCtx,
  id: string,
  apply: (current: ProductRecord, now: string) => ProductChange | Promise<ProductChange>,
): Promise<{ next: ProductRecord }> {
  for (let attempt = 1; ; attempt++) {
    const current = await requireProduct(ctx, id);
    const { next, event, eventRecord } = await apply(current, ctx.clock.now().toISOString());
    if (!event) return { next: current };
    try {
      await ctx.store.transact([
        productWrites.replace(ctx.scope, next, current.updatedAt),
        outboxPut(newEvent(ctx.scope, ctx.clock, event, toProductView(eventRecord ?? next))),
      ]);
      return { next };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw conflict('The product changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

export async function updateProduct(ctx: CatalogCtx, id: string, change: ProductUpdateInput): Promise<ProductView> {
  const { next } = await changeProduct(ctx, id, async (current, now) => {
    await checkReferences(ctx, change, current);
    const merged = mergeProduct(current, change, now);
    throwProblem(productProblem(merged));
    // An update that changes nothing a client can see writes nothing and emits no event.
    if (sameView(toProductView(current), toProductView(merged))) return { next: current };
    return { next: merged, event: 'product.updated' };
  });
  return toProductView(next);
}

export async function deleteProduct(ctx: CatalogCtx, id: string): Promise<{ _id: string; deleted: true }> {
  await changeProduct(ctx, id, (current, now) => ({
    next: { ...current, deletedAt: now },
    event: 'product.deleted',
    // The event carries the product as it was, the document a receiver last saw.
    eventRecord: current,
  }));
  return { _id: id, deleted: true };
}

/**
 * Copies a product inside the key's mode, or from test into live mode (`testMode: false` from a
 * test key). A copy into live mode starts unpublished and carries no references to test-mode
 * records (refund policy, images), which do not exist in live mode.
 */
export async function copyProduct(ctx: CatalogCtx, id: string, input: { testMode?: boolean }): Promise<ProductView> {
  const source = await requireProduct(ctx, id);
  let target = ctx.scope;
  if (input.testMode !== undefined && input.testMode !== (ctx.scope.mode === 'test')) {
    if (ctx.scope.mode === 'live') throw badRequest('testMode: a live product cannot be copied into test mode', { field: 'testMode' });
    target = { accountId: ctx.scope.accountId, mode: 'live' };
  }
  const crossMode = target.mode !== ctx.scope.mode;
  const taken = (await listProducts(ctx.store, target)).map((product) => product.name);
  const m = meta(ctx, target);
  const copy: ProductRecord = {
    ...source,
    _id: m.id,
    name: copyName(source.name, taken),
    testMode: m.testMode,
    createdAt: m.now,
    updatedAt: m.now,
    ...(crossMode ? { published: false, refundPolicyId: null, imageIds: [] } : {}),
  };
  const view = toProductView(copy);
  await ctx.store.transact([...productWrites.create(target, copy), outboxPut(newEvent(target, ctx.clock, 'product.created', view))]);
  return view;
}

// ---- subscription offers ----

export async function listOfferViews(ctx: CatalogCtx): Promise<OfferView[]> {
  return (await listOffers(ctx.store, ctx.scope)).map(toOfferView);
}

async function requireOffer(ctx: CatalogCtx, id: string): Promise<OfferRecord> {
  const offer = await getActiveOffer(ctx.store, ctx.scope, id);
  if (!offer) throw await offerMissing(ctx, id);
  return offer;
}

export async function readOffer(ctx: CatalogCtx, id: string): Promise<OfferView> {
  return toOfferView(await requireOffer(ctx, id));
}

async function changeOffer(
  ctx: CatalogCtx,
  id: string,
  apply: (current: OfferRecord, now: string) => OfferRecord | undefined | Promise<OfferRecord | undefined>,
): Promise<OfferRecord> {
  for (let attempt = 1; ; attempt++) {
    const current = await requireOffer(ctx, id);
    const next = await apply(current, ctx.clock.now().toISOString());
    if (!next) return current;
    try {
      await ctx.store.transact([offerWrites.replace(ctx.scope, next, current.updatedAt)]);
      return next;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= MAX_UPDATE_ATTEMPTS) throw conflict('The subscription offer changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

export async function updateOffer(ctx: CatalogCtx, id: string, change: OfferUpdateInput): Promise<OfferView> {
  const next = await changeOffer(ctx, id, async (current, now) => {
    await checkReferences(ctx, change, current);
    const merged = mergeOffer(current, change, now);
    return sameView(toOfferView(current), toOfferView(merged)) ? undefined : merged;
  });
  return toOfferView(next);
}

export async function deleteOffer(ctx: CatalogCtx, id: string): Promise<{ _id: string; deleted: true }> {
  await changeOffer(ctx, id, (current, now) => ({ ...current, deletedAt: now }));
  return { _id: id, deleted: true };
}

// ---- for other capabilities (storefront) ----

/** The product or subscription offer with this id that can be sold in this tenant and mode; undefined when none. */
export async function findSellable(deps: Deps, scope: Scope, id: string) {
  return getSellable(deps.store, scope, id);
}

/** How many live products of the tenant and mode use each refund policy. */
export async function countProductsByRefundPolicy(deps: Deps, scope: Scope): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const product of await listProductsWithRefundPolicy(deps.store, scope)) {
    if (product.refundPolicyId) counts.set(product.refundPolicyId, (counts.get(product.refundPolicyId) ?? 0) + 1);
  }
  return counts;
}
