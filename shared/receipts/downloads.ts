import { productFileFor } from '../imports/product-files';
import type { Deps } from '../platform/context';
import { ApiError, notFound } from '../platform/errors';
import { downloadLinkEntity } from './entities';

export { downloadLinksFor, MAIL_LINK_MS, PAGE_LINK_MS, type DownloadOffer } from './download-links';

/**
 * A download: the token must exist, name this product and still be valid. Every mismatch answers
 * the same 404, so a token says nothing about other products or accounts; a link past its time
 * answers 410.
 */
export async function openDownload(deps: Pick<Deps, 'store' | 'clock' | 'ports'>, productId: string, token: string): Promise<{ body: Uint8Array; contentType: string; filename: string }> {
  const link = /^[0-9A-Za-z]{40}$/.test(token) ? await downloadLinkEntity.get(deps.store, 'byToken', token) : undefined;
  if (!link || link.productId !== productId) throw notFound('Download');
  if (Date.parse(link.validUntil) <= deps.clock.now().getTime()) throw new ApiError(410, 'This download link has expired; open the link in your receipt again or contact the seller', { code: 'DOWNLOAD_EXPIRED' });
  const file = await productFileFor(deps, link.scope, productId);
  const blob = file ? await deps.ports.blob.get(file.blobKey) : undefined;
  if (!file || !blob) throw notFound('Download');
  return { body: blob.body, contentType: file.contentType || blob.contentType, filename: file.filename };
}
