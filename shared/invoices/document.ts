import type { SaleRecord } from '../sales/records';
import type { InvoiceDocument } from '../platform/invoice-document';
import { chooseLanguage } from './labels';

export type { InvoiceDocument };
import type { InvoiceRecord } from './records';

export interface SellerIdentity {
  displayName: string;
  legalName: string | null;
  legalAddress: string | null;
  taxId: string | null;
  supportEmail: string | null;
}

/** The lines of a sale: its own lines (an upsell taken), or the product at its price before any code. */
function linesOf(sale: SaleRecord): { description: string; amountCents: number }[] {
  if (sale.lines?.length) return sale.lines.map((l) => ({ description: l.productName, amountCents: l.amountCents }));
  return [{ description: sale.productName, amountCents: sale.originalAmountCents }];
}

export function invoiceDocument(input: {
  sale: SaleRecord;
  invoice: InvoiceRecord;
  seller: SellerIdentity;
  kind: InvoiceDocument['kind'];
  lang?: string;
}): InvoiceDocument {
  const { sale, invoice, seller } = input;
  const lines = linesOf(sale);
  const lineSum = lines.reduce((sum, l) => sum + l.amountCents, 0);
  // With lines, the code already reduced the product's line; without, the code is the difference.
  const discountCents = sale.lines?.length ? 0 : Math.max(0, sale.originalAmountCents - sale.amountCents);
  const taxCents = (sale as SaleRecord & { taxCents?: number }).taxCents ?? 0;
  const name = [sale.firstName, sale.lastName].filter(Boolean).join(' ') || null;
  const common = {
    orderId: sale._id,
    language: chooseLanguage(input.lang, sale.country),
    seller: { name: seller.legalName ?? seller.displayName, address: seller.legalAddress, taxId: seller.taxId, email: seller.supportEmail },
    buyer: {
      name,
      email: sale.buyerEmail || null,
      companyName: invoice.buyer.companyName,
      address: invoice.buyer.address,
      vatId: invoice.buyer.vatId,
      country: sale.country,
    },
    currency: sale.currency,
    refundedCents: sale.refundedCents,
    state:
      sale.refundedCents >= sale.amountCents && sale.refundedCents > 0
        ? ('refunded' as const)
        : sale.refundedCents > 0
          ? ('partly_refunded' as const)
          : ('paid' as const),
    testMode: sale.testMode,
  };
  if (input.kind === 'credit_note') {
    const note = invoice.creditNote!;
    return {
      ...common,
      kind: 'credit_note',
      number: note.number,
      issuedAt: note.issuedAt,
      creditFor: invoice.number,
      lines: [{ description: sale.productName, amountCents: -note.amountCents }],
      discount: null,
      subtotalCents: -note.amountCents,
      taxCents: 0,
      totalCents: -note.amountCents,
    };
  }
  return {
    ...common,
    kind: 'invoice',
    number: invoice.number,
    issuedAt: invoice.issuedAt,
    lines,
    discount: discountCents > 0 ? { code: sale.discountCode ?? '', amountCents: discountCents } : null,
    subtotalCents: lineSum - discountCents - taxCents,
    taxCents,
    totalCents: sale.amountCents,
  };
}
