import type { Deps } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import { objectId } from '../../platform/ids';
import { toCents, toMajor } from '../../platform/money';
import type { Scope } from '../../store/keys';
import { failOnCondition } from '../../store/conditional';
import { lookupProduct } from '../../catalog/service';
import { assertSellable, assertSellables } from '../catalog-lookup';
import type { UpsellRecord } from './records';
import { insertUpsell, loadUpsell, loadUpsells, removeUpsell, replaceUpsell } from './repository';
import type { UpsellInput } from './schemas';

export const presentUpsell = (u: UpsellRecord) => ({
  _id: u._id,
  name: u.name,
  mainProductIds: u.mainProductIds,
  upsellProductId: u.upsellProductId,
  upsellPrice: toMajor(u.upsellPriceCents),
  testMode: u.testMode,
  createdAt: u.createdAt,
  updatedAt: u.updatedAt,
});

async function checkProducts(deps: Deps, scope: Scope, upsell: UpsellRecord) {
  // Offering a product as an upsell to its own buyers would sell it twice.
  if (upsell.mainProductIds.includes(upsell.upsellProductId)) {
    throw badRequest('upsellProductId: must not be one of mainProductIds', { field: 'upsellProductId' });
  }
  await assertSellables(deps, scope, upsell.mainProductIds, 'mainProductIds');
  await assertSellable(deps, scope, upsell.upsellProductId, 'upsellProductId');
}

export async function createUpsell(
  deps: Deps,
  scope: Scope,
  input: Required<Pick<UpsellInput, 'mainProductIds' | 'upsellProductId' | 'upsellPrice'>> & UpsellInput,
) {
  const now = deps.clock.now().toISOString();
  const upsell: UpsellRecord = {
    _id: objectId(deps.clock),
    name: input.name ?? null,
    mainProductIds: [...new Set(input.mainProductIds)],
    upsellProductId: input.upsellProductId,
    upsellPriceCents: toCents(input.upsellPrice),
    testMode: scope.mode === 'test',
    createdAt: now,
    updatedAt: now,
  };
  await checkProducts(deps, scope, upsell);
  await insertUpsell(deps.store, scope, upsell);
  return upsell;
}

export const listUpsells = (deps: Deps, scope: Scope) => loadUpsells(deps.store, scope);

export async function getUpsell(deps: Deps, scope: Scope, id: string): Promise<UpsellRecord> {
  const upsell = await loadUpsell(deps.store, scope, id);
  if (!upsell) throw notFound('Upsell');
  return upsell;
}

export async function updateUpsell(deps: Deps, scope: Scope, id: string, input: UpsellInput): Promise<UpsellRecord> {
  const current = await getUpsell(deps, scope, id);
  const next: UpsellRecord = {
    ...current,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.mainProductIds ? { mainProductIds: [...new Set(input.mainProductIds)] } : {}),
    ...(input.upsellProductId ? { upsellProductId: input.upsellProductId } : {}),
    ...(input.upsellPrice !== undefined ? { upsellPriceCents: toCents(input.upsellPrice) } : {}),
    updatedAt: deps.clock.now().toISOString(),
  };
  await checkProducts(deps, scope, next);
  await failOnCondition(replaceUpsell(deps.store, scope, next), () => notFound('Upsell'));
  return next;
}

export async function deleteUpsell(deps: Deps, scope: Scope, id: string): Promise<void> {
  if (!(await removeUpsell(deps.store, scope, id))) throw notFound('Upsell');
}

/**
 * The upsell a checkout of `productId` offers (an order bump on the hosted page), or undefined:
 * the newest upsell naming the product among its mainProductIds whose upsell product is a live
 * one-time product in the checkout's currency. Upsells are a bounded per-tenant list.
 */
export async function upsellForCheckout(deps: Pick<Deps, 'store'>, scope: Scope, productId: string, currency: string) {
  const candidates = (await loadUpsells(deps.store, scope))
    .filter((u) => u.mainProductIds.includes(productId))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  for (const upsell of candidates) {
    const product = await lookupProduct(deps, scope, upsell.upsellProductId);
    if (!product || product.deletedAt || product.currency !== currency) continue;
    return {
      upsellId: upsell._id,
      productId: product._id,
      productName: product.name,
      description: product.description?.trim() || null,
      regularCents: product.priceCents,
      amountCents: upsell.upsellPriceCents,
    };
  }
  return undefined;
}
