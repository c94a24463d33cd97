import { getAccount } from '../platform/accounts';
import { sellerBrand, type SellerBrand } from '../account/branding';
import { buyerPage } from '../account/buyer-page';
import { lookupSellable, productScope } from '../catalog/service';
import type { Deps, RequestInfo } from '../platform/context';
import { ApiError } from '../platform/errors';
import { isObjectId } from '../platform/ids';
import { consumeRequest } from '../platform/rate-limit';
import { createCheckoutSession } from './service';
import { buyerLanguage, requestLanguage, withLanguage } from '../account/buyer-language';
import type { MessageKey } from '../platform/i18n/catalogues';
import { matchLocale, negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { escapeHtml } from '../platform/html';

/** Checkouts one address may open through buy links in a minute (a person opens one or two). */
export const BUY_LINKS_PER_IP_PER_MINUTE = 20;

export interface BuyLinkQuery {
  discount?: string;
  email?: string;
  quantity?: string;
  ref?: string;
  amount?: string;
  /** The visitor's language for the pages here; the checkout it opens keeps it (`?lang=`). */
  lang?: string;
  /** `product`: the product's page with its Buy button, no checkout (where a cancelled checkout returns). */
  view?: string;
}

export type BuyLinkOutcome = { kind: 'redirect'; location: string } | { kind: 'page'; status: number; html: string; headers: Record<string, string> };

/** Link unfurlers, crawlers and speculative loads: they see the product, they open no checkout. */
const PREVIEWER =
  /bot\b|bot\/|crawler|spider|slurp|facebookexternalhit|facebookcatalog|embedly|quora link preview|whatsapp|telegrambot|slackbot|discordbot|linkedinbot|skypeuripreview|vkshare|pinterest|redditbot|applebot|bingpreview/i;

export function isPreviewRequest(headers: Record<string, string>): boolean {
  const purpose = `${headers['sec-purpose'] ?? ''} ${headers.purpose ?? ''} ${headers['x-purpose'] ?? ''} ${headers['x-moz'] ?? ''}`.toLowerCase();
  if (/prefetch|prerender|preview/.test(purpose)) return true;
  return PREVIEWER.test(headers['user-agent'] ?? '');
}

/** An amount as a link carries it, in cents: `12`, `12.5`, `12.50`. */
export function linkAmountCents(text: string): number | undefined {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text.trim())) return undefined;
  const [whole, fraction = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

type ProblemTitle = 'buyLink.notForSaleTitle' | 'buyLink.amountTitle' | 'buyLink.quantityTitle' | 'buyLink.busyTitle' | 'buyLink.cannotOpenTitle';

/** Why a link opens no checkout, in the visitor's language (`?lang=`, the browser, the seller's default); `message` as given when it is the checkout's own reason. */
const problemPage = async (
  deps: Deps,
  request: Pick<RequestInfo, 'headers'>,
  status: number,
  heading: ProblemTitle,
  message: MessageKey | { text: string },
  baseUrl: string,
  scope?: { accountId: string; mode: 'live' | 'test' },
  lang?: string,
): Promise<BuyLinkOutcome> => {
  const brand: SellerBrand = scope
    ? await sellerBrand(deps, scope, baseUrl)
    : { name: 'Checkout', logoUrl: null, accent: '#1f2937', accentText: '#1f2937', onAccent: '#ffffff', supportEmail: null };
  const t = scope
    ? await buyerLanguage(deps, scope, { query: lang, acceptLanguage: request.headers['accept-language'], sellerDefault: brand.locale ?? null })
    : await requestLanguage(lang, request.headers['accept-language']);
  const body = `<section class="card"><h1 id="heading">${t.html(heading)}</h1><p id="message">${typeof message === 'string' ? t.html(message) : escapeHtml(message.text)}</p></section>`;
  const page = buyerPage({ brand, title: t.t(heading), baseUrl, body, locale: t.locale });
  return { kind: 'page', status, html: page.html, headers: { ...page.headers, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' } };
};

/**
 * GET /buy/{productId}: opens a new hosted checkout for the product and sends the buyer to it.
 * Previews and prefetches get a page about the product and open nothing; a caller address is held
 * to a few checkouts a minute; sessions opened here expire unpaid after a day.
 */
export async function openBuyLink(deps: Deps, request: RequestInfo, productId: string, query: BuyLinkQuery, baseUrl: string): Promise<BuyLinkOutcome> {
  const scope = isObjectId(productId) ? await productScope(deps, productId) : undefined;
  const sellable = scope ? await lookupSellable(deps, scope, productId) : undefined;
  const product = sellable?.kind === 'product' && sellable.product.published ? sellable.product : undefined;
  if (!scope || !product || !(await getAccount(deps.store, scope.accountId)))
    return problemPage(deps, request, 404, 'buyLink.notForSaleTitle', 'buyLink.notForSale', baseUrl, undefined, query.lang);

  if (query.view === 'product' || isPreviewRequest(request.headers)) {
    const brand = await sellerBrand(deps, scope, baseUrl);
    const t = await buyerLanguage(deps, scope, { query: query.lang, acceptLanguage: request.headers['accept-language'], sellerDefault: brand.locale ?? null });
    const body = `<section class="card"><h1 id="heading">${escapeHtml(product.name)}</h1>${product.description ? `<p>${escapeHtml(product.description)}</p>` : ''}<p class="price">${escapeHtml(t.money(product.priceCents, product.currency))}</p><p><a class="button" href="${escapeHtml(`${baseUrl}/buy/${productId}`)}">${t.html('buyLink.buy')}</a></p></section>`;
    const page = buyerPage({ brand, title: product.name, baseUrl, body, locale: t.locale });
    return { kind: 'page', status: 200, html: page.html, headers: { ...page.headers, 'cache-control': 'no-store' } };
  }

  const amountCents = query.amount !== undefined ? linkAmountCents(query.amount) : undefined;
  if (query.amount !== undefined && amountCents === undefined)
    return problemPage(deps, request, 400, 'buyLink.amountTitle', 'buyLink.amount', baseUrl, scope, query.lang);
  const quantity = query.quantity !== undefined ? Number(query.quantity) : undefined;
  if (quantity !== undefined && !(Number.isInteger(quantity) && quantity >= 1))
    return problemPage(deps, request, 400, 'buyLink.quantityTitle', 'buyLink.quantity', baseUrl, scope, query.lang);

  try {
    await consumeRequest(deps, `buy-link#${request.sourceIp}`, BUY_LINKS_PER_IP_PER_MINUTE);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429)
      return problemPage(deps, request, 429, 'buyLink.busyTitle', 'buyLink.busy', baseUrl, scope, query.lang);
    throw error;
  }

  const link = `${baseUrl}/buy/${productId}`;
  const referer = request.headers.referer ?? '';
  // Back to the page the link was on; without one, never to the link itself: a processor that
  // sends the buyer straight to the success address (Stripe) would open a new checkout after paying.
  const from =
    /^https?:\/\//.test(referer) && referer.length <= 2048 && !referer.startsWith(`${baseUrl}/processor/`) && !referer.startsWith(link) ? referer : undefined;
  try {
    const session = await createCheckoutSession(
      { ...deps, scope, request: { baseUrl } },
      {
        productId,
        successUrl: from ?? `${link}/thanks`,
        cancelUrl: from ?? `${link}?view=product`,
        ...(query.discount ? { discountCode: query.discount.slice(0, 100) } : {}),
        ...(query.ref ? { referralCode: query.ref.slice(0, 100) } : {}),
        ...(query.email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(query.email) && query.email.length <= 320 ? { customerEmail: query.email } : {}),
        ...(amountCents !== undefined ? { amountCents } : {}),
        ...(quantity !== undefined ? { quantity } : {}),
        metadata: { source: 'buy_link' },
      },
      { viaBuyLink: true },
    );
    return { kind: 'redirect', location: matchLocale(query.lang) ? withLanguage(session.url, matchLocale(query.lang)!) : session.url };
  } catch (error) {
    // A code that does not apply, an amount under the minimum...: the buyer reads why.
    if (error instanceof ApiError && error.status < 500)
      return problemPage(
        deps,
        request,
        error.status === 404 ? 400 : error.status,
        'buyLink.cannotOpenTitle',
        { text: error.message.replace(/^[a-zA-Z]+: /, '') },
        baseUrl,
        scope,
        query.lang,
      );
    throw error;
  }
}

/**
 * GET /buy/{productId}/thanks: where a buy link's checkout returns when it was opened from no page
 * (a link in a bio): the order is complete, the receipt (downloads, keys) is on its way.
 */
export async function buyLinkThanks(
  deps: Deps,
  productId: string,
  baseUrl: string,
  acceptLanguage: string | undefined,
): Promise<Extract<BuyLinkOutcome, { kind: 'page' }>> {
  const scope = isObjectId(productId) ? await productScope(deps, productId) : undefined;
  const brand = scope ? await sellerBrand(deps, scope, baseUrl) : undefined;
  if (!scope || !brand)
    return (await problemPage(
      deps,
      { headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} },
      404,
      'buyLink.notForSaleTitle',
      'buyLink.notForSale',
      baseUrl,
    )) as Extract<BuyLinkOutcome, { kind: 'page' }>;
  const t = await loadTranslator(negotiateLocale({ acceptLanguage, sellerDefault: brand.locale }));
  const body = `<section class="card"><h1 id="heading">${t.html('thanks.heading')}</h1><p id="confirmation">${t.html('thanks.orderComplete')} ${t.html('buyLink.receiptNote')}</p></section>`;
  const page = buyerPage({ brand, title: t.t('thanks.title'), baseUrl, body, locale: t.locale });
  return { kind: 'page', status: 200, html: page.html, headers: { ...page.headers, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' } };
}
