import { beforeAll, describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { loadCatalogue, type Catalogue } from '../../shared/platform/i18n/catalogues';
import { en } from '../../shared/platform/i18n/catalogues/en';
import { acceptedLocales, LOCALES, matchLocale, negotiateLocale } from '../../shared/platform/i18n/locales';
import { translator, loadedTranslator, loadTranslator } from '../../shared/platform/i18n/translator';

// Every language's catalogue, loaded as a buyer's request would load it (each but English is imported on first use).
const CATALOGUES = {} as Record<(typeof LOCALES)[number], Catalogue>;
beforeAll(async () => {
  for (const locale of LOCALES) {
    CATALOGUES[locale] = await loadCatalogue(locale);
    await loadTranslator(locale);
  }
});

/** The argument names a message uses, nested plurals and selects included. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(el.value);
      for (const option of Object.values(el.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

describe('catalogues', () => {
  it('every language has every key English has, no other, with the same placeholders, and parses', () => {
    const keys = Object.keys(en).sort();
    for (const locale of LOCALES) {
      const catalogue = CATALOGUES[locale] as Record<string, string>;
      expect(
        Object.keys(catalogue).filter((k) => !(k in en)),
        `${locale} has keys English lacks`,
      ).toEqual([]);
      expect(
        keys.filter((k) => !(k in catalogue)),
        `${locale} lacks keys English has`,
      ).toEqual([]);
      for (const key of keys) {
        const source = catalogue[key]!;
        expect(source.trim(), `${locale} ${key} is empty`).not.toBe('');
        // HTML builders add markup around messages; a message itself never carries any.
        expect(source, `${locale} ${key} holds HTML`).not.toMatch(/[<>&]/);
        const mine = [...argumentsOf(parse(source, { ignoreTag: true }))].sort();
        const english = [...argumentsOf(parse((en as Record<string, string>)[key]!, { ignoreTag: true }))].sort();
        expect(mine, `${locale} ${key} placeholders`).toEqual(english);
      }
    }
  });

  it('every language is a translation, not a copy of English: only words that are the same in both stay alike', () => {
    // Words that really are spelled the same (Total, Date, Message, Status, Community, Optional) and a format-only message.
    const alike = new Set([
      'checkout.total',
      'portal.date',
      'portal.statusLabel',
      'portal.statusColumn',
      'mail.line',
      'area.message',
      'area.community',
      'invoice.optional',
    ]);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const catalogue = CATALOGUES[locale] as Record<string, string>;
      const copied = Object.keys(en).filter((k) => catalogue[k] === (en as Record<string, string>)[k] && !alike.has(k));
      expect(copied, `${locale} copies English`).toEqual([]);
    }
  });

  it('a catalogue that lacks a key fails the check above (it is not vacuous)', () => {
    const { ['checkout.pay']: _gone, ...rest } = CATALOGUES.fr as Record<string, string>;
    expect(Object.keys(en).filter((k) => !(k in rest))).toEqual(['checkout.pay']);
  });
});

describe('choosing the language', () => {
  it('?lang=, then the saved language, then Accept-Language, then the seller default, then English', () => {
    expect(negotiateLocale({ query: 'de', saved: 'fr', acceptLanguage: 'es', sellerDefault: 'ja' })).toBe('de');
    expect(negotiateLocale({ query: 'xx', saved: 'fr', acceptLanguage: 'es', sellerDefault: 'ja' })).toBe('fr');
    expect(negotiateLocale({ acceptLanguage: 'es-MX,es;q=0.9,en;q=0.5', sellerDefault: 'ja' })).toBe('es');
    expect(negotiateLocale({ acceptLanguage: 'ko-KR, zh;q=0.8', sellerDefault: 'ja' })).toBe('ja');
    expect(negotiateLocale({ acceptLanguage: 'ko-KR' })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });

  it('reads Accept-Language by quality, refuses q=0, maps regional tags', () => {
    expect(acceptedLocales('en;q=0.2, fr-CA;q=0.9, de;q=0')).toEqual(['fr', 'en']);
    expect(acceptedLocales('pt-PT')).toEqual(['pt-BR']);
    expect(acceptedLocales('*')).toEqual([]);
    expect(matchLocale('PT_br')).toBe('pt-BR');
    expect(matchLocale('ja-JP')).toBe('ja');
  });
});

describe('translator', () => {
  it('plurals, money and dates follow the language', () => {
    expect(translator('en').t('checkout.fixFields', { count: 1 })).toBe('Please correct the field marked below.');
    expect(loadedTranslator('fr').t('checkout.fixFields', { count: 3 })).toBe('Veuillez corriger les 3 champs signalés ci-dessous.');
    expect(loadedTranslator('fr').money(2150, 'EUR')).toMatch(/^21,50\s€$/);
    expect(loadedTranslator('de').money(2150, 'EUR')).toMatch(/^21,50\s€$/);
    expect(translator('en').money(2150, 'USD')).toBe('$21.50');
    expect(loadedTranslator('ja').money(2150, 'JPY')).toMatch(/[¥￥]22$/);
    expect(loadedTranslator('es').date('2026-03-04T10:00:00Z')).toBe('4 de marzo de 2026');
    expect(loadedTranslator('de').t('checkout.intro', { today: 'A', intro: 'B', regular: 'C', count: 2, interval: 'monthly' })).toBe(
      'A heute, dann B für die nächsten 2 Monate, danach C',
    );
  });

  it('html() escapes values but not the markup built by the caller', () => {
    const t = translator('en');
    expect(t.html('checkout.upsellRemove', { product: '<b>Guide</b>' })).toBe('Remove &lt;b&gt;Guide&lt;/b&gt;');
    expect(t.html('checkout.youSave', { code: { __html: '<strong>X</strong>' }, amount: '$1.00' })).toBe('Code <strong>X</strong>: you save $1.00');
  });
});
