import { productFileFor } from '../imports/service';
import type { Deps } from '../platform/context';
import { ApiError, notFound } from '../platform/errors';
import { randomBase62 } from '../platform/ids';
import type { Scope } from '../store/keys';
import { downloadLinkEntity, type DownloadLink } from './entities';

/** On the thank-you page: long enough to finish the download, short enough not to be shared. */
export const PAGE_LINK_MS = 24 * 3600 * 1000;
/** In the receipt mail: a week to open the mail. */
export const MAIL_LINK_MS = 7 * 24 * 3600 * 1000;

export interface DownloadOffer {
  filename: string;
  size: number;
  url: string;
  validUntil: string;
}

/**
 * Fresh download links for what a buyer paid for: one capability link per product file, bound to
 * the account, mode and product and valid for `validForMs`. The blob key is never shown.
 */
export async function downloadLinksFor(deps: Pick<Deps, 'store' | 'clock'>, scope: Scope, productId: string, input: { ref: string; baseUrl: string; validForMs: number }): Promise<DownloadOffer[]> {
  const file = await productFileFor(deps, scope, productId);
  if (!file) return [];
  const now = deps.clock.now();
  const link: DownloadLink = { token: randomBase62(40), scope, productId, ref: input.ref, validUntil: new Date(now.getTime() + input.validForMs).toISOString(), createdAt: now.toISOString() };
  const expiresAt = Math.floor((now.getTime() + input.validForMs) / 1000) + 24 * 3600;
  await deps.store.put(downloadLinkEntity.item(downloadLinkEntity.declaration.key(link.token), link, { expiresAt }), { ifNotExists: true });
  return [{ filename: file.filename, size: file.size, url: `${input.baseUrl}/downloads/${productId}/${link.token}`, validUntil: link.validUntil }];
}

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
