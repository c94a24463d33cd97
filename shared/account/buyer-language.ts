import type { Deps } from '../platform/context';
import { acceptedLocales, matchLocale, negotiateLocale, type Locale } from '../platform/i18n/locales';
import { loadTranslator, type Translator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import type { Scope } from '../store/keys';
import { readBranding } from './branding';

/**
 * The language of a page or mail for one buyer, in the one order every buyer page follows:
 * `?lang=`, the language saved at their last checkout, the browser's Accept-Language, the
 * seller's default (`PATCH /account/branding { locale }`), English. Each source is read only when
 * the ones before it said nothing, so an explicit choice costs no read.
 */
export interface BuyerLanguageInput {
  /** `?lang=` on the page's address. */
  query?: string | null;
  /** The buyer's address, when known: their saved language is on their customer record. */
  email?: string | null;
  acceptLanguage?: string | null;
  /** The seller's default when the caller already read it (a brand); read here otherwise. */
  sellerDefault?: Locale | null;
}

export async function buyerLanguage(deps: Pick<Deps, 'store'>, scope: Scope, input: BuyerLanguageInput): Promise<Translator> {
  const asked = matchLocale(input.query);
  if (asked) return loadTranslator(asked);
  const saved = input.email ? (await findCustomerOfEmail(deps, scope, input.email))?.locale : undefined;
  const savedLocale = matchLocale(saved);
  if (savedLocale) return loadTranslator(savedLocale);
  const fromBrowser = acceptedLocales(input.acceptLanguage)[0];
  if (fromBrowser) return loadTranslator(fromBrowser);
  const sellerDefault = input.sellerDefault !== undefined ? input.sellerDefault : (await readBranding(deps, scope)).locale;
  return loadTranslator(negotiateLocale({ sellerDefault }));
}

/** The language a request alone says (`?lang=`, then Accept-Language, then English): for pages shown before the buyer or seller is known. */
export const requestLanguage = (query: string | null | undefined, acceptLanguage: string | null | undefined): Promise<Translator> =>
  loadTranslator(matchLocale(query) ?? acceptedLocales(acceptLanguage)[0]);

/** A link that keeps the language it was mailed or shown in (`?lang=`), so the page opens in it too. */
export function withLanguage(url: string, locale: Locale): string {
  if (!url) return url;
  return `${url}${url.includes('?') ? '&' : '?'}lang=${encodeURIComponent(locale)}`;
}
