import type { SellerBrand } from '../account/branding';
import { buyerPage, escapeHtml as escape, type BuyerPage } from '../account/buyer-page';
import { translator, type Translator } from '../platform/i18n/translator';
import type { OrderDownload } from './records';

/** The list of an order's files with their fresh links (thank-you page, receipt page), in the buyer's language. */
export function downloadsSection(downloads: OrderDownload[], note: string, t: Translator = translator()): string {
  if (!downloads.length) return '';
  return `<section class="card" aria-labelledby="downloads-heading"><h2 id="downloads-heading">${t.html('thanks.downloads')}</h2><ul id="downloads">${downloads
    .map((d) => `<li><a href="${escape(d.url)}" download>${escape(d.name)}</a> <span class="muted">(${escape(t.size(d.size))})</span></li>`)
    .join('')}</ul><p class="muted">${escape(note)}</p></section>`;
}

/** The page a receipt's download link opens: fresh links each visit, or why there are none. */
export function receiptDownloadsPage(brand: SellerBrand, baseUrl: string, downloads: OrderDownload[], revoked: boolean, t: Translator = translator()): BuyerPage {
  const heading = `<h1>${t.html('thanks.downloads')}</h1>`;
  const body = revoked
    ? `<section class="card">${heading}<p id="revoked">${t.html('downloads.revoked', { seller: brand.name })}</p></section>`
    : downloads.length
      ? downloadsSection(downloads, t.t('downloads.linkValid'), t)
      : `<section class="card">${heading}<p id="none">${t.html('downloads.none')}</p></section>`;
  return buyerPage({ brand, title: t.t('thanks.downloads'), baseUrl, body, locale: t.locale });
}
