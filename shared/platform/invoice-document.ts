/**
 * The contract between the invoices capability and the render port: what one invoice or credit
 * note prints (built by shared/invoices/document.ts, drawn by shared/invoices/pdf.ts in the render
 * function). Kept in the kernel because the port carries it.
 */
/** Everything printed on an invoice or credit note: built from the records by a plain function. */
export interface InvoiceDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  issuedAt: string;
  /** The invoice a credit note corrects. */
  creditFor?: string;
  orderId: string;
  /** en, de, fr or es (shared/invoices/labels.ts). */
  language: 'en' | 'de' | 'fr' | 'es';
  seller: { name: string; address: string | null; taxId: string | null; email: string | null };
  buyer: { name: string | null; email: string | null; companyName: string | null; address: string | null; vatId: string | null; country: string | null };
  lines: { description: string; amountCents: number }[];
  discount: { code: string; amountCents: number } | null;
  subtotalCents: number;
  taxCents: number;
  totalCents: number;
  currency: string;
  state: 'paid' | 'refunded' | 'partly_refunded';
  refundedCents: number;
  testMode: boolean;
}
