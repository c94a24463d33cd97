import PDFDocument from 'pdfkit';
import type { InvoiceDocument } from '../platform/invoice-document';
import { formatAmount, formatDate, labelsFor } from './labels';

/**
 * The PDF of an invoice or credit note (pdfkit, its built-in Helvetica: Windows-1252 covers the
 * languages offered). Only this module imports pdfkit, and only the render function runs it (the
 * invoices reach it through the render port), so no API function bundles pdfkit and fontkit.
 */

// Characters Helvetica's encoding lacks become their nearest plain form (Intl's narrow spaces).
const printable = (text: string) =>
  text
    .replace(/[\u00a0\u202f\u2009]/g, ' ')
    .replace(/[\u2212]/g, '-')
    .replace(/[^\u0020-\u007e\u00a0-\u00ff\u20ac\u2013\u2014\u2018\u2019\u201c\u201d\n]/g, '?');

export function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const t = labelsFor(doc.language);
  const money = (cents: number) => printable(formatAmount(cents, doc.currency, doc.language));
  const title = doc.kind === 'invoice' ? t.invoice : t.creditNote;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${title} ${doc.number}`, Author: printable(doc.seller.name), Producer: 'creator-commerce' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  const left = 50;
  const right = pdf.page.width - 50;
  const width = right - left;

  pdf.font('Helvetica-Bold').fontSize(22).text(printable(title), left, 50);
  pdf.font('Helvetica').fontSize(10);
  pdf.text(printable(`${t.number}: ${doc.number}`));
  pdf.text(printable(`${t.date}: ${formatDate(doc.issuedAt, doc.language)}`));
  if (doc.creditFor) pdf.text(printable(`${t.creditFor}: ${doc.creditFor}`));
  pdf.text(printable(`${t.order}: ${doc.orderId}`));
  if (doc.testMode) pdf.moveDown(0.5).font('Helvetica-Bold').text(printable(t.testMode)).font('Helvetica');

  // Seller and buyer side by side.
  const top = pdf.y + 20;
  const column = width / 2 - 10;
  const block = (x: number, heading: string, rows: (string | null)[]) => {
    pdf.font('Helvetica-Bold').fontSize(10).text(printable(heading), x, top, { width: column });
    pdf.font('Helvetica');
    for (const row of rows) if (row) pdf.text(printable(row), { width: column });
    return pdf.y;
  };
  const sellerEnd = block(left, t.seller, [doc.seller.name, doc.seller.address, doc.seller.taxId ? `${t.taxId}: ${doc.seller.taxId}` : null, doc.seller.email]);
  const buyerEnd = block(left + width / 2 + 10, t.billedTo, [
    doc.buyer.companyName,
    doc.buyer.name,
    doc.buyer.address,
    doc.buyer.country && !doc.buyer.address ? doc.buyer.country : null,
    doc.buyer.vatId ? `${t.vatId}: ${doc.buyer.vatId}` : null,
    doc.buyer.email,
  ]);

  // Lines and totals.
  let y = Math.max(sellerEnd, buyerEnd) + 30;
  const amountX = right - 120;
  const row = (label: string, amount: string, bold = false) => {
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    const height = pdf.heightOfString(printable(label), { width: amountX - left - 10 });
    pdf.text(printable(label), left, y, { width: amountX - left - 10 });
    pdf.text(amount, amountX, y, { width: 120, align: 'right' });
    y += Math.max(height, 12) + 6;
  };
  const rule = () => {
    pdf
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
    y += 4;
  };
  row(t.description, printable(t.amount), true);
  rule();
  for (const line of doc.lines) row(line.description, money(line.amountCents));
  if (doc.discount) row(`${t.discount}${doc.discount.code ? ` (${doc.discount.code})` : ''}`, money(-doc.discount.amountCents));
  rule();
  row(t.subtotal, money(doc.subtotalCents));
  row(t.tax, money(doc.taxCents));
  row(`${t.total} (${doc.currency.toUpperCase()})`, money(doc.totalCents), true);
  y += 10;
  if (doc.kind === 'invoice') {
    const state = doc.state === 'paid' ? t.paid : doc.state === 'refunded' ? t.refunded : t.partlyRefunded;
    row(state, doc.refundedCents > 0 ? `${printable(t.refundedAmount)}: ${money(doc.refundedCents)}` : '', true);
  }
  pdf.end();
  return done;
}
