/**
 * The words of an invoice, in the buyer's language: the language is chosen from what the buyer
 * asked for (`lang`), else their country, else English.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface InvoiceLabels {
  invoice: string;
  creditNote: string;
  number: string;
  date: string;
  creditFor: string;
  seller: string;
  billedTo: string;
  vatId: string;
  taxId: string;
  description: string;
  amount: string;
  discount: string;
  subtotal: string;
  tax: string;
  total: string;
  paid: string;
  refunded: string;
  partlyRefunded: string;
  refundedAmount: string;
  testMode: string;
  order: string;
}

const LABELS: Record<Language, InvoiceLabels> = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    number: 'Number',
    date: 'Date',
    creditFor: 'Credit for invoice',
    seller: 'From',
    billedTo: 'Billed to',
    vatId: 'VAT ID',
    taxId: 'Tax ID',
    description: 'Description',
    amount: 'Amount',
    discount: 'Discount',
    subtotal: 'Subtotal',
    tax: 'Tax',
    total: 'Total',
    paid: 'Paid',
    refunded: 'Refunded',
    partlyRefunded: 'Partly refunded',
    refundedAmount: 'Refunded',
    testMode: 'Test mode: no real money moved.',
    order: 'Order',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    number: 'Nummer',
    date: 'Datum',
    creditFor: 'Gutschrift zu Rechnung',
    seller: 'Von',
    billedTo: 'Rechnungsempfänger',
    vatId: 'USt-IdNr.',
    taxId: 'Steuernummer',
    description: 'Beschreibung',
    amount: 'Betrag',
    discount: 'Rabatt',
    subtotal: 'Zwischensumme',
    tax: 'Steuer',
    total: 'Gesamt',
    paid: 'Bezahlt',
    refunded: 'Erstattet',
    partlyRefunded: 'Teilweise erstattet',
    refundedAmount: 'Erstattet',
    testMode: 'Testmodus: Es wurde kein echtes Geld bewegt.',
    order: 'Bestellung',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    number: 'Numéro',
    date: 'Date',
    creditFor: 'Avoir sur la facture',
    seller: 'De',
    billedTo: 'Facturé à',
    vatId: 'N° TVA',
    taxId: 'Identifiant fiscal',
    description: 'Description',
    amount: 'Montant',
    discount: 'Remise',
    subtotal: 'Sous-total',
    tax: 'Taxe',
    total: 'Total',
    paid: 'Payée',
    refunded: 'Remboursée',
    partlyRefunded: 'Partiellement remboursée',
    refundedAmount: 'Remboursé',
    testMode: "Mode test : aucun argent réel n'a été débité.",
    order: 'Commande',
  },
  es: {
    invoice: 'Factura',
    creditNote: 'Nota de crédito',
    number: 'Número',
    date: 'Fecha',
    creditFor: 'Abono de la factura',
    seller: 'De',
    billedTo: 'Facturado a',
    vatId: 'NIF-IVA',
    taxId: 'NIF',
    description: 'Descripción',
    amount: 'Importe',
    discount: 'Descuento',
    subtotal: 'Subtotal',
    tax: 'Impuesto',
    total: 'Total',
    paid: 'Pagada',
    refunded: 'Reembolsada',
    partlyRefunded: 'Reembolsada en parte',
    refundedAmount: 'Reembolsado',
    testMode: 'Modo de prueba: no se movió dinero real.',
    order: 'Pedido',
  },
};

const BY_COUNTRY: Record<string, Language> = {
  DE: 'de',
  AT: 'de',
  CH: 'de',
  LI: 'de',
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  MC: 'fr',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
};

export function chooseLanguage(requested: string | undefined, country: string | null | undefined): Language {
  const asked = requested?.trim().toLowerCase().slice(0, 2);
  if (asked && (LANGUAGES as readonly string[]).includes(asked)) return asked as Language;
  return (country && BY_COUNTRY[country.toUpperCase()]) || 'en';
}

export const labelsFor = (language: Language): InvoiceLabels => LABELS[language];

const LOCALE: Record<Language, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES' };

export function formatAmount(cents: number, currency: string, language: Language): string {
  try {
    return new Intl.NumberFormat(LOCALE[language], { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

export const formatDate = (iso: string, language: Language) =>
  new Date(iso).toLocaleDateString(LOCALE[language], { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
