import { sellerBrand } from '../account/branding';
import { buyerLanguage, requestLanguage } from '../account/buyer-language';
import { buyerPage, type BuyerPage } from '../account/buyer-page';
import type { Deps } from '../platform/context';
import { safeHtml } from '../platform/i18n/translator';
import type { BalanceView } from './consent';
import { escapeHtml } from '../platform/html';

/** A browser asking for a page (Accept names text/html); API clients get the JSON view. */
export const wantsHtml = (headers: Record<string, string>) => /\btext\/html\b/.test(headers.accept ?? '');

/** Where the page's language comes from: `?lang=` and the browser's Accept-Language (then the seller's default). */
export interface PageLanguage {
  lang?: string;
  acceptLanguage?: string;
}

/**
 * The buyer's balance page: the balance, and auto top-ups with the form that turns them off.
 * Plain HTML, no script; words in the buyer's language, the product's name as the seller wrote it.
 */
export async function balancePage(
  deps: Pick<Deps, 'store'>,
  view: BalanceView,
  input: { baseUrl: string; action: string; turnedOff?: boolean } & PageLanguage,
): Promise<BuyerPage> {
  const brand = await sellerBrand(deps, view.scope, input.baseUrl);
  const t = await buyerLanguage(deps, view.scope, { query: input.lang, acceptLanguage: input.acceptLanguage, sellerDefault: brand.locale ?? null });
  const money = (cents: number) => t.money(cents, view.currency);
  const on = safeHtml(`<strong>${escapeHtml(t.t('balance.on'))}</strong>`);
  const refill = view.autoRefill.enabled
    ? `<p id="auto-refill">${view.autoRefill.topOffCents ? t.html('balance.autoOnCharge', { on, amount: money(view.autoRefill.topOffCents) }) : t.html('balance.autoOnPlain', { on })}</p>
<form method="post" action="${escapeHtml(input.action)}"><button type="submit" id="turn-off">${t.html('balance.turnOff')}</button></form>`
    : `<p id="auto-refill">${t.html('balance.autoOff', { off: safeHtml(`<strong>${escapeHtml(t.t('balance.off'))}</strong>`) })}</p>`;
  const body = `<section class="card" aria-labelledby="balance-heading">
<h1 id="balance-heading">${escapeHtml(view.productName)}</h1>
${input.turnedOff ? `<div class="ok" role="status" id="notice">${t.html('balance.turnedOff')}</div>` : ''}
<p>${t.html('balance.label')} <strong id="balance">${escapeHtml(money(view.balanceCents))}</strong>${view.paused ? ` <span class="badge" id="paused">${t.html('balance.paused')}</span>` : ''}</p>
${view.paused ? `<p class="muted">${t.html('balance.pausedText')}</p>` : ''}
${refill}
</section>`;
  return buyerPage({ brand, title: view.productName, baseUrl: input.baseUrl, body, locale: t.locale });
}

/** A link that opens nothing: the same page for a wrong and an unknown link. */
export async function missingBalancePage(language: PageLanguage = {}): Promise<BuyerPage> {
  const t = await requestLanguage(language.lang, language.acceptLanguage);
  return buyerPage({
    brand: { name: t.t('balance.credits'), logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null },
    title: t.t('balance.notFoundTitle'),
    baseUrl: '',
    locale: t.locale,
    body: `<section class="card"><h1>${t.html('balance.notFoundTitle')}</h1><p role="alert">${t.html('balance.notFound')}</p></section>`,
  });
}
