import type { SellerBrand } from '../account/branding';
import { buyerPage, escapeHtml, type BuyerPage } from '../account/buyer-page';
import type { Translator } from '../platform/i18n/translator';
import type { OrderDownload } from './records';

/** The list of an order's files with their fresh links (the receipt's page), in the buyer's language. */
export function downloadsSection(downloads: OrderDownload[], t: Translator): string {
  if (!downloads.length) return '';
  return `<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">${t.html('thanks.downloads')}</h2><ul id="downloads">${downloads
    .map((d) => `<li><a href="${escapeHtml(d.url)}" download>${escapeHtml(d.name)}</a> <span class="muted">(${escapeHtml(t.size(d.size))})</span></li>`)
    .join('')}</ul><p class="muted">${t.html('downloads.linkNote')}</p></section>`;
}

/** The page a receipt's download link opens: fresh links each visit, or why there are none. */
export function receiptDownloadsPage(brand: SellerBrand, baseUrl: string, downloads: OrderDownload[], revoked: boolean, t: Translator): BuyerPage {
  const body = revoked
    ? `<section class="card"><h1>${t.html('thanks.downloads')}</h1><p id="revoked">${t.html('downloads.revoked', { seller: brand.name })}</p></section>`
    : downloads.length
      ? downloadsSection(downloads, t)
      : `<section class="card"><h1>${t.html('thanks.downloads')}</h1><p id="none">${t.html('downloads.none')}</p></section>`;
  return buyerPage({ brand, title: t.t('thanks.downloads'), baseUrl, body, locale: t.locale });
}
