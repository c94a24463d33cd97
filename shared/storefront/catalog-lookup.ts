import { findSellable } from '../catalog/service';
import type { Deps } from '../platform/context';
import { badRequest } from '../platform/errors';
import type { Scope } from '../store/keys';

/** Every id must be a product or subscription offer of this account and mode; else 400 naming it. */
export async function assertSellables(deps: Deps, scope: Scope, ids: string[], field: string): Promise<void> {
  const found = await Promise.all(ids.map((id) => findSellable(deps, scope, id)));
  const missing = found.findIndex((f) => !f);
  if (missing >= 0) throw badRequest(`${field}.${missing}: product ${ids[missing]} not found`, { field: `${field}.${missing}` });
}

export async function sellablePrice(deps: Deps, scope: Scope, id: string): Promise<{ priceCents: number; currency: string } | undefined> {
  const sellable = await findSellable(deps, scope, id);
  if (!sellable) return undefined;
  const record = sellable.kind === 'product' ? sellable.product : sellable.offer;
  return { priceCents: record.priceCents, currency: record.currency };
}

export async function assertSellable(deps: Deps, scope: Scope, id: string, field: string): Promise<void> {
  if (!(await findSellable(deps, scope, id))) throw badRequest(`${field}: product ${id} not found`, { field });
}
