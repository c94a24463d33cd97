/**
 * The languages buyer pages and mails speak, and how one is chosen for a request. Pure: the
 * choice is tested without a page.
 */
export const LOCALES = ['en', 'fr', 'de', 'es', 'pt-BR', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

const byLower = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * The supported locale a language tag means, or undefined: exact match first (`pt-BR`), then the
 * language alone (`fr-CA` → `fr`, `de-AT` → `de`), and any Portuguese as Brazilian Portuguese,
 * the only Portuguese offered.
 */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const clean = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!clean || clean === '*') return undefined;
  const exact = byLower.get(clean);
  if (exact) return exact;
  const language = clean.split('-')[0]!;
  if (language === 'pt') return 'pt-BR';
  return byLower.get(language);
}

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The supported locales an `Accept-Language` header asks for, best first (q-values honoured, q=0 refused). */
export function acceptedLocales(header: string | null | undefined): Locale[] {
  if (!header) return [];
  const asked = header
    .split(',')
    .slice(0, 30)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((a) => a.tag && Number.isFinite(a.q) && a.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const out: Locale[] = [];
  for (const a of asked) {
    const locale = matchLocale(a.tag);
    if (locale && !out.includes(locale)) out.push(locale);
  }
  return out;
}

export interface LocaleSources {
  /** `?lang=` on the page's address: the buyer's explicit choice. */
  query?: string | null;
  /** What the buyer chose before (saved on their checkout or customer record). */
  saved?: string | null;
  /** The browser's `Accept-Language` header. */
  acceptLanguage?: string | null;
  /** The seller's default (`PATCH /account/branding { locale }`). */
  sellerDefault?: string | null;
}

/** `?lang=`, then the buyer's saved language, then Accept-Language, then the seller's default, then English. */
export function negotiateLocale(sources: LocaleSources): Locale {
  return (
    matchLocale(sources.query) ??
    matchLocale(sources.saved) ??
    acceptedLocales(sources.acceptLanguage)[0] ??
    matchLocale(sources.sellerDefault) ??
    DEFAULT_LOCALE
  );
}

/** Each language by its own name, for a language menu. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  fr: 'Français',
  de: 'Deutsch',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
};
