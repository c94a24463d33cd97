import { buyerPage, escapeHtml as esc, formatMoney, type BuyerPage } from '../account/buyer-page';
import type { SellerBrand } from '../account/branding';
import type { SaleRecord } from '../sales/records';
import type { InvoiceBuyerDetails, InvoiceRecord } from './records';

/** The buyer's invoice page: company details first (optional), then the download. */
export function invoicePage(input: {
  brand: SellerBrand;
  baseUrl: string;
  token: string;
  sale: SaleRecord;
  invoice: InvoiceRecord | undefined;
  error?: { message: string; field?: string };
  values?: Partial<InvoiceBuyerDetails>;
}): BuyerPage {
  const { sale, invoice, token } = input;
  const base = `/receipts/${encodeURIComponent(token)}`;
  const paid = `${esc(sale.productName)} · ${esc(formatMoney(sale.amountCents, sale.currency))} · ${esc(new Date(sale.createdAt).toLocaleDateString('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }))}`;
  const creditNote = sale.refundedCents > 0 ? `<p><a href="${base}/credit-note.pdf">Download the credit note for the refund (PDF)</a></p>` : '';
  if (invoice) {
    const b = invoice.buyer;
    const details = [b.companyName, b.address, b.vatId ? `VAT ID ${b.vatId}` : null].filter(Boolean).map((line) => `<div>${esc(line!).replace(/\n/g, '<br>')}</div>`).join('');
    return buyerPage({
      brand: input.brand,
      baseUrl: input.baseUrl,
      title: `Invoice ${invoice.number}`,
      body: `<div class="card"><h1>Invoice ${esc(invoice.number)}</h1><p class="muted">${paid}</p>
${details ? `<h2>Billed to</h2>${details}` : '<p class="muted">Issued without company details.</p>'}
<p><a class="button" href="${base}/invoice.pdf">Download the invoice (PDF)</a></p>${creditNote}</div>`,
    });
  }
  const v = input.values ?? {};
  const field = (name: keyof InvoiceBuyerDetails, label: string, hint: string) => {
    const invalid = input.error?.field === name;
    return `<label for="${name}">${label}</label><input type="text" id="${name}" name="${name}" value="${esc(v[name] ?? '')}" autocomplete="${name === 'companyName' ? 'organization' : name === 'address' ? 'street-address' : 'off'}"${invalid ? ` aria-invalid="true" aria-describedby="${name}-error"` : ''}>
${invalid ? `<p class="field-error" id="${name}-error">${esc(input.error!.message)}</p>` : `<p class="muted">${hint}</p>`}`;
  };
  const alert = input.error && !input.error.field ? `<div class="alert" role="alert">${esc(input.error.message)}</div>` : '';
  return buyerPage({
    brand: input.brand,
    baseUrl: input.baseUrl,
    title: 'Your invoice',
    body: `<div class="card"><h1>Your invoice</h1><p class="muted">${paid}</p>${alert}
<p>Buying for a business? Add its details before you download: they are printed on the invoice and cannot be changed afterwards.</p>
<form method="post" action="${base}/invoice">
${field('companyName', 'Company name', 'Optional')}
${field('address', 'Company address', 'Optional: street, postcode, city, country')}
${field('vatId', 'VAT ID', 'Optional: for example DE123456789')}
<button type="submit" class="primary">Save and download the invoice</button>
</form>
<p><a href="${base}/invoice.pdf">Download without company details</a></p>${creditNote}</div>`,
  });
}

export function missingInvoicePage(brand: SellerBrand, baseUrl: string): BuyerPage {
  return buyerPage({ brand, baseUrl, title: 'Invoice not found', body: '<div class="card"><h1>Invoice not found</h1><p>This link does not lead to an order. Check the link in your receipt.</p></div>' });
}
