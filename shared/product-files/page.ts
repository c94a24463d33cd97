import type { SellerBrand } from '../account/branding';
import { buyerPage, escapeHtml as escape, type BuyerPage } from '../account/buyer-page';
import type { OrderDownload } from './records';
import { sizeText } from './types';

/** The list of an order's files with their fresh links (thank-you page, receipt page). */
export function downloadsSection(downloads: OrderDownload[], note: string): string {
  if (!downloads.length) return '';
  return `<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">Your downloads</h2><ul id="downloads">${downloads
    .map((d) => `<li><a href="${escape(d.url)}" download>${escape(d.name)}</a> <span class="muted">(${escape(sizeText(d.size))})</span></li>`)
    .join('')}</ul><p class="muted">${escape(note)}</p></section>`;
}

/** The page a receipt's download link opens: fresh links each visit, or why there are none. */
export function receiptDownloadsPage(brand: SellerBrand, baseUrl: string, downloads: OrderDownload[], revoked: boolean): BuyerPage {
  const body = revoked
    ? `<section class="card"><h1>Your downloads</h1><p id="revoked">These files are no longer available: the order was refunded. Questions? Contact ${escape(brand.name)}.</p></section>`
    : downloads.length
      ? downloadsSection(downloads, 'Each link works for an hour; come back to this page from your receipt any time for fresh ones.')
      : `<section class="card"><h1>Your downloads</h1><p id="none">There are no files to download for this order.</p></section>`;
  return buyerPage({ brand, title: 'Your downloads', baseUrl, body });
}
