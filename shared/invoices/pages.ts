import { buyerPage, type BuyerPage } from '../account/buyer-page';
import type { SellerBrand } from '../account/branding';
import { translator, type Translator } from '../platform/i18n/translator';
import type { SaleRecord } from '../sales/records';
import { LANGUAGES } from './labels';
import type { InvoiceBuyerDetails, InvoiceRecord } from './records';
import { escapeHtml } from '../platform/html';

type FieldName = keyof InvoiceBuyerDetails;
const LABEL = { companyName: 'invoice.companyName', address: 'invoice.companyAddress', vatId: 'invoice.vatId' } as const;
const HINT = { companyName: 'invoice.optional', address: 'invoice.addressHint', vatId: 'invoice.vatHint' } as const;

/**
 * What went wrong, in the buyer's words: the rules word their errors for the API (English); the
 * page says the same per field (a VAT ID's shape, a text too long) or that it was already issued.
 */
function errorText(t: Translator, error: { message: string; field?: string; status?: number }): string {
  if (error.field === 'vatId' && !/at most|text expected/.test(error.message)) return t.t('invoice.errorVat');
  if (error.field && error.field in LABEL) return t.t('invoice.errorLong');
  if (error.status === 409) return t.t('invoice.alreadyIssued');
  return error.message;
}

/** The buyer's invoice page: company details first (optional), then the download. Words in the buyer's language (`t`). */
export function invoicePage(input: {
  brand: SellerBrand;
  baseUrl: string;
  token: string;
  sale: SaleRecord;
  invoice: InvoiceRecord | undefined;
  error?: { message: string; field?: string; status?: number };
  values?: Partial<InvoiceBuyerDetails>;
  t?: Translator;
  /** The buyer chose the language in the address (`?lang=`): the form keeps it. */
  explicitLanguage?: boolean;
}): BuyerPage {
  const { sale, invoice, token } = input;
  const t = input.t ?? translator();
  const base = `/receipts/${encodeURIComponent(token)}`;
  // The PDF in the page's language when the invoice speaks it; otherwise the invoice's own choice (the buyer's country).
  const pdfLang = t.locale !== 'en' && (LANGUAGES as readonly string[]).includes(t.locale) ? `?lang=${t.locale}` : '';
  const paid = `${escapeHtml(sale.productName)} · ${escapeHtml(t.money(sale.amountCents, sale.currency))} · ${escapeHtml(t.date(sale.createdAt))}`;
  const creditNote = sale.refundedCents > 0 ? `<p><a href="${base}/credit-note.pdf${pdfLang}">${t.html('invoice.creditNote')}</a></p>` : '';
  if (invoice) {
    const b = invoice.buyer;
    const details = [b.companyName, b.address, b.vatId ? t.t('invoice.vatIdLine', { vatId: b.vatId }) : null]
      .filter(Boolean)
      .map((line) => `<div>${escapeHtml(line!).replace(/\n/g, '<br>')}</div>`)
      .join('');
    return buyerPage({
      brand: input.brand,
      baseUrl: input.baseUrl,
      locale: t.locale,
      title: t.t('invoice.title', { number: invoice.number }),
      body: `<div class="card"><h1>${t.html('invoice.title', { number: invoice.number })}</h1><p class="muted">${paid}</p>
${details ? `<h2>${t.html('invoice.billedTo')}</h2>${details}` : `<p class="muted">${t.html('invoice.noDetails')}</p>`}
<p><a class="button" href="${base}/invoice.pdf${pdfLang}">${t.html('invoice.download')}</a></p>${creditNote}</div>`,
    });
  }
  const v = input.values ?? {};
  const shownError = input.error ? errorText(t, input.error) : '';
  const field = (name: FieldName) => {
    const invalid = input.error?.field === name;
    return `<label for="${name}">${t.html(LABEL[name])}</label><input type="text" id="${name}" name="${name}" value="${escapeHtml(v[name] ?? '')}" autocomplete="${name === 'companyName' ? 'organization' : name === 'address' ? 'street-address' : 'off'}"${invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${invalid ? `<p class="field-error" id="${name}-error">${escapeHtml(shownError)}</p>` : `<p class="muted">${t.html(HINT[name])}</p>`}`;
  };
  const alert = input.error && !input.error.field ? `<div class="alert" role="alert">${escapeHtml(shownError)}</div>` : '';
  return buyerPage({
    brand: input.brand,
    baseUrl: input.baseUrl,
    locale: t.locale,
    title: t.t('invoice.yours'),
    body: `<div class="card"><h1>${t.html('invoice.yours')}</h1><p class="muted">${paid}</p>${alert}
<p>${t.html('invoice.business')}</p>
<form method="post" action="${base}/invoice${input.explicitLanguage ? `?lang=${encodeURIComponent(t.locale)}` : ''}">
${field('companyName')}
${field('address')}
${field('vatId')}
<button type="submit" class="primary">${t.html('invoice.save')}</button>
</form>
<p><a href="${base}/invoice.pdf${pdfLang}">${t.html('invoice.withoutDetails')}</a></p>${creditNote}</div>`,
  });
}

export function missingInvoicePage(brand: SellerBrand, baseUrl: string, t: Translator = translator()): BuyerPage {
  return buyerPage({
    brand,
    baseUrl,
    locale: t.locale,
    title: t.t('invoice.notFoundTitle'),
    body: `<div class="card"><h1>${t.html('invoice.notFoundTitle')}</h1><p>${t.html('invoice.notFound')}</p></div>`,
  });
}
