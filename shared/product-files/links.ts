import { lookupProduct } from '../catalog/service';
import type { Deps } from '../platform/context';
import { notFound } from '../platform/errors';
import { randomBase62 } from '../platform/ids';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import type { DownloadToken, OrderDownload } from './records';
import * as repo from './repository';

// Signed links for an order and their end: table only (no blob), so the functions that hand
// links out or revoke them (orders, the thank-you page, receipts, refunds) do not reach S3.

/** A signed download link works this long: enough to start the download, too short to share. */
export const DOWNLOAD_LINK_MS = 60 * 60 * 1000;
/** A receipt's download page works for two years after the order. */
const ACCESS_LINK_SECONDS = 2 * 365 * 24 * 3600;

/** What an order bought, as this capability needs it (the sales capability owns orders). */
export interface OrderRef {
  id: string;
  /** The product and any upsell product taken with it. */
  productIds: string[];
  /** Only a completed order downloads; a refunded or disputed one gets nothing. */
  status: string;
}

/**
 * Fresh signed links to every file of what an order bought (the order's read, the thank-you page,
 * the receipt's page): one token per file, bound to the order, valid for an hour. None once the
 * order is refunded or disputed, or its access was revoked.
 */
export async function downloadsForOrder(deps: Pick<Deps, 'store' | 'clock'>, scope: Scope, order: OrderRef, baseUrl: string): Promise<OrderDownload[]> {
  if (order.status !== 'completed' || !baseUrl) return [];
  const grant = await repo.grantOf(deps.store, scope, order.id);
  if (grant?.revokedAt) return [];
  const now = deps.clock.now();
  const validUntil = new Date(now.getTime() + DOWNLOAD_LINK_MS).toISOString();
  const expiresAt = Math.floor((now.getTime() + DOWNLOAD_LINK_MS) / 1000) + 24 * 3600;
  const perProduct = await Promise.all(
    [...new Set(order.productIds)].map(async (productId) => {
      const [product, files] = await Promise.all([lookupProduct(deps, scope, productId), repo.filesOfProduct(deps.store, scope, productId)]);
      return files.map((file) => ({ file, limit: product?.downloadLimit }));
    }),
  );
  return Promise.all(
    perProduct.flat().map(async ({ file, limit }) => {
      const token: DownloadToken = {
        token: randomBase62(40),
        scope,
        productId: file.productId,
        fileId: file._id,
        orderId: order.id,
        ...(limit ? { limit } : {}),
        validUntil,
        createdAt: now.toISOString(),
      };
      await repo.putToken(deps.store, token, expiresAt);
      return { fileId: file._id, name: file.name, size: file.size, url: `${baseUrl}/downloads/${token.token}`, expiresAt: validUntil };
    }),
  );
}

/** Downloads made and the limit, for the order's read. */
export async function downloadUsage(deps: Pick<Deps, 'store'>, scope: Scope, orderId: string): Promise<{ used: number; revoked: boolean }> {
  const grant = await repo.grantOf(deps.store, scope, orderId);
  return { used: grant?.used ?? 0, revoked: Boolean(grant?.revokedAt) };
}

/**
 * The lasting link a receipt carries: it leads to a page that signs fresh links each time it is
 * opened, in the receipt's language (`locale`). Undefined when the order bought no files.
 */
export async function receiptAccessUrl(
  deps: Pick<Deps, 'store' | 'clock'>,
  scope: Scope,
  order: OrderRef,
  baseUrl: string,
  locale?: string,
): Promise<string | undefined> {
  if (!baseUrl || order.status !== 'completed') return undefined;
  const any = (await Promise.all(order.productIds.map((id) => repo.filesOfProduct(deps.store, scope, id)))).some((files) => files.length > 0);
  if (!any) return undefined;
  const now = deps.clock.now();
  const token = randomBase62(40);
  await repo.putAccessLink(
    deps.store,
    { token, scope, orderId: order.id, productIds: order.productIds, createdAt: now.toISOString() },
    Math.floor(now.getTime() / 1000) + ACCESS_LINK_SECONDS,
  );
  return `${baseUrl}/downloads/orders/${token}${locale && locale !== 'en' ? `?lang=${encodeURIComponent(locale)}` : ''}`;
}

/** The receipt page's content: fresh links, or why there are none. */
export async function openReceiptAccess(
  deps: Pick<Deps, 'store' | 'clock'>,
  tokenText: string,
  baseUrl: string,
): Promise<{ scope: Scope; downloads: OrderDownload[]; revoked: boolean }> {
  const link = /^[0-9A-Za-z]{40}$/.test(tokenText) ? await repo.accessLinkOf(deps.store, tokenText) : undefined;
  if (!link) throw notFound('Download page');
  const grant = await repo.grantOf(deps.store, link.scope, link.orderId);
  if (grant?.revokedAt) return { scope: link.scope, downloads: [], revoked: true };
  return {
    scope: link.scope,
    downloads: await downloadsForOrder(deps, link.scope, { id: link.orderId, productIds: link.productIds, status: 'completed' }, baseUrl),
    revoked: false,
  };
}

/** Ends an order's downloads (full refund or dispute): the write for the refund's own transaction. */
export const revokeDownloadsOp = (scope: Scope, orderId: string, reason: 'refunded' | 'disputed', at: string): TransactOp =>
  repo.revokeGrantOp(scope, orderId, reason, at);
