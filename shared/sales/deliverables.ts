import { keysOfOrder, revokeOrderLicensesOps } from '../licenses/service';
import type { Deps } from '../platform/context';
import { downloadsForOrder, revokeDownloadsOp } from '../product-files/links';
import type { TransactOp } from '../store/store';
import type { Scope } from '../store/keys';
import type { SaleRecord } from './records';

/**
 * What a one-time order delivers, as its buyer and its seller see it: fresh signed links to the
 * files of everything it bought (the product and a taken upsell) and its licence keys. Refunded
 * or disputed orders download nothing; their keys show as refunded.
 */
export async function orderDeliverables(deps: Pick<Deps, 'store' | 'clock' | 'ports'>, scope: Scope, sale: SaleRecord, baseUrl: string) {
  if (sale.type !== 'one_time') return { downloads: [], licenseKeys: [] };
  const productIds = sale.lines?.length ? sale.lines.map((l) => l.productId) : [sale.productId];
  const [downloads, keys] = await Promise.all([
    downloadsForOrder(deps, scope, { id: sale._id, productIds, status: sale.status }, baseUrl),
    keysOfOrder(deps, scope, sale._id),
  ]);
  return {
    downloads,
    licenseKeys: keys.map((k) => ({
      key: k.key,
      status: k.status,
      licenseId: k.licenseId,
      productId: k.productId,
      activationLimit: k.activationLimit,
      activations: k.activations,
      expiresAt: k.expiresAt,
    })),
  };
}

/** A full refund or a dispute ends a one-time order's downloads and licence keys: the writes for its own transaction. */
export async function endDeliverablesOps(
  deps: Pick<Deps, 'store' | 'clock'>,
  scope: Scope,
  sale: SaleRecord,
  reason: 'refund' | 'dispute',
  at: string,
): Promise<TransactOp[]> {
  if (sale.type !== 'one_time') return [];
  return [
    revokeDownloadsOp(scope, sale._id, reason === 'refund' ? 'refunded' : 'disputed', at),
    ...(await revokeOrderLicensesOps(deps, scope, sale._id, reason)),
  ];
}
