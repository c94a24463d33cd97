import { IntlMessageFormat } from 'intl-messageformat';
import { en, loadCatalogue, type Catalogue, type MessageKey } from './catalogues';
import { DEFAULT_LOCALE, type Locale } from './locales';
import { escapeHtml } from '../html';

/**
 * Buyer-facing words, in the buyer's language: ICU MessageFormat messages from the catalogues
 * (plurals, selects and numbers by the locale's rules, through `intl-messageformat`), and money,
 * dates and sizes through `Intl`. Seller-written text (product names, descriptions) is passed in
 * as values and shown as written.
 */
export type MessageValues = Record<string, string | number | boolean | Date | null | undefined>;

/** A value already safe in HTML (markup this code built), passed to `html()` unescaped. */
export interface SafeHtml {
  readonly __html: string;
}
export const safeHtml = (html: string): SafeHtml => ({ __html: html });

export interface Translator {
  locale: Locale;
  /** The message as plain text (escape it before putting it in HTML). */
  t(key: MessageKey, values?: MessageValues): string;
  /** The message for HTML: string values are escaped, SafeHtml values are inserted as they are. */
  html(key: MessageKey, values?: Record<string, string | number | boolean | Date | SafeHtml | null | undefined>): string;
  money(cents: number, currency: string): string;
  /** A calendar day (UTC), as people write it in this language. */
  date(iso: string | Date): string;
  /** A file size in KB or MB. */
  size(bytes: number): string;
}

// Parsed messages are kept per locale and key: parsing is the costly part, and the set is small.
const compiled = new Map<string, IntlMessageFormat>();
// The catalogues loaded so far (English always; the others by loadTranslator).
const loaded = new Map<Locale, Catalogue>([[DEFAULT_LOCALE, en]]);

function message(locale: Locale, key: MessageKey): IntlMessageFormat {
  const id = `${locale}\u0000${key}`;
  let format = compiled.get(id);
  if (!format) {
    // A key a catalogue lacks falls back to English (the completeness test keeps that from shipping).
    const own = loaded.get(locale)![key];
    const source = own ?? en[key] ?? key;
    format = new IntlMessageFormat(source, own ? locale : DEFAULT_LOCALE, undefined, { ignoreTag: true });
    compiled.set(id, format);
  }
  return format;
}

const asText = (value: unknown): string => (Array.isArray(value) ? value.join('') : String(value));

export function formatMoneyIn(locale: string, cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat(locale === 'en' ? 'en-US' : locale, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

const translators = new Map<Locale, Translator>();

/**
 * The translator of a buyer's language, its catalogue loaded first (catalogues/index.ts: each
 * language but English is imported on first use).
 */
export async function loadTranslator(locale: Locale = DEFAULT_LOCALE): Promise<Translator> {
  if (!loaded.has(locale)) loaded.set(locale, await loadCatalogue(locale));
  return translatorOf(locale);
}

/**
 * The translator of a language loaded before (by loadTranslator): for a page frame built around a
 * body already written in that language. Throws for one never loaded: a wiring mistake.
 */
export function loadedTranslator(locale: Locale): Translator {
  if (!loaded.has(locale)) throw new Error(`The ${locale} catalogue is not loaded: get the translator with loadTranslator`);
  return translatorOf(locale);
}

/** English, at hand without loading (the default of pages and mails that are not in a buyer's language). */
export const translator = (locale: 'en' = 'en'): Translator => translatorOf(locale);

function translatorOf(locale: Locale): Translator {
  const known = translators.get(locale);
  if (known) return known;
  // Made on the first date it formats: the first Intl.DateTimeFormat of a process loads the ICU
  // calendar data (~10 ms), which a module that takes a translator at import (mails.ts) would
  // otherwise pay in every cold start of its function, dates shown or not.
  let dates: Intl.DateTimeFormat | undefined;
  const t: Translator = {
    locale,
    t: (key, values) => asText(message(locale, key).format(values as Record<string, string | number | boolean | Date>)),
    html: (key, values = {}) => {
      const safe = Object.fromEntries(
        Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? escapeHtml(v) : v && typeof v === 'object' && '__html' in v ? v.__html : v]),
      );
      return asText(message(locale, key).format(safe as Record<string, string | number | boolean | Date>));
    },
    money: (cents, currency) => formatMoneyIn(locale, cents, currency),
    date: (iso) => {
      dates ??= new Intl.DateTimeFormat(locale === 'en' ? 'en-US' : locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
      return dates.format(typeof iso === 'string' ? new Date(iso) : iso);
    },
    size: (bytes) => {
      const mb = bytes >= 1024 * 1024;
      return new Intl.NumberFormat(locale, {
        style: 'unit',
        unit: mb ? 'megabyte' : 'kilobyte',
        maximumFractionDigits: mb ? 1 : 0,
        minimumFractionDigits: mb ? 1 : 0,
      }).format(mb ? bytes / 1024 / 1024 : Math.max(1, Math.round(bytes / 1024)));
    },
  };
  translators.set(locale, t);
  return t;
}
