// Making links touches the table only; opening one (downloads.ts) reads blob storage, so the
// functions that only make them (the sandbox's thank-you page) do not bundle the S3 client.
import { productFileFor } from '../imports/product-files';
import type { Deps } from '../platform/context';
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
