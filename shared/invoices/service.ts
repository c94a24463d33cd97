import { readBranding, sellerBrand, type SellerBrand } from '../account/branding';
import type { Deps, OperationContext } from '../platform/context';
import { ApiError, conflict, notFound } from '../platform/errors';
import { logger } from '../platform/logger';
import { findSale } from '../sales/lookups';
import type { SaleRecord } from '../sales/records';
import { receiptOfToken } from '../storefront/reviews/service';
import { ConditionFailed } from '../store/store';
import { scopeOf, type Scope } from '../store/keys';
import { invoiceDocument, type SellerIdentity } from './document';
import { formatNumber } from './numbering';
import type { InvoiceBuyerDetails, InvoiceRecord } from './records';
import { counterStep, creditNoteSet, getInvoice, invoicePut, lastNumber } from './repository';

/** Racing issues of one seller take turns on the counter; past this many lost turns, 503. */
const ISSUE_TRIES = 25;
const NO_DETAILS: InvoiceBuyerDetails = { companyName: null, address: null, vatId: null };

function busy(): never {
  logger.error('invoice counter contended past its tries');
  throw new ApiError(503, 'Invoices are being numbered by many requests at once: try again in a moment', { code: 'INVOICE_COUNTER_BUSY' });
}

/**
 * The sale's invoice, issued on first need: the counter moves from n to n + 1 and the invoice is
 * written with number n + 1 in one transaction, so a number is given exactly once and none is
 * skipped (a failed transaction takes no number). A lost race reads again and tries again.
 */
export async function issueInvoice(
  deps: Deps,
  scope: Scope,
  sale: SaleRecord,
  buyer: InvoiceBuyerDetails = NO_DETAILS,
): Promise<{ invoice: InvoiceRecord; issued: boolean }> {
  for (let attempt = 0; attempt < ISSUE_TRIES; attempt++) {
    const existing = await getInvoice(deps.store, scope, sale._id);
    if (existing) return { invoice: existing, issued: false };
    const previous = await lastNumber(deps.store, scope, 'invoice');
    const invoice: InvoiceRecord = {
      saleId: sale._id,
      number: formatNumber('invoice', scope.mode, previous + 1),
      issuedAt: deps.clock.now().toISOString(),
      buyer,
    };
    try {
      await deps.store.transact([counterStep(scope, 'invoice', previous), invoicePut(scope, invoice)]);
      return { invoice, issued: true };
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  return busy();
}

/** The credit note of a refunded sale, numbered in its own sequence the same way. */
export async function issueCreditNote(deps: Deps, scope: Scope, sale: SaleRecord): Promise<InvoiceRecord> {
  if (sale.refundedCents <= 0) throw conflict('This order has not been refunded: there is no credit note', 'NOT_REFUNDED');
  let { invoice } = await issueInvoice(deps, scope, sale);
  for (let attempt = 0; attempt < ISSUE_TRIES; attempt++) {
    if (invoice.creditNote) return invoice;
    const previous = await lastNumber(deps.store, scope, 'credit_note');
    const creditNote = {
      number: formatNumber('credit_note', scope.mode, previous + 1),
      issuedAt: deps.clock.now().toISOString(),
      amountCents: sale.refundedCents,
    };
    try {
      await deps.store.transact([counterStep(scope, 'credit_note', previous), creditNoteSet(scope, sale._id, creditNote)]);
      return { ...invoice, creditNote };
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
      invoice = (await getInvoice(deps.store, scope, sale._id)) ?? invoice;
    }
  }
  return busy();
}

async function sellerIdentity(deps: Deps, scope: Scope, brand?: SellerBrand): Promise<SellerIdentity> {
  const [branding, seller] = await Promise.all([readBranding(deps, scope), brand ? Promise.resolve(brand) : sellerBrand(deps, scope, '')]);
  return {
    displayName: seller.name,
    legalName: branding.legalName,
    legalAddress: branding.legalAddress,
    taxId: branding.taxId,
    supportEmail: seller.supportEmail,
  };
}

export interface RenderedInvoice {
  pdf: Uint8Array;
  number: string;
}

async function render(
  deps: Deps,
  scope: Scope,
  sale: SaleRecord,
  invoice: InvoiceRecord,
  kind: 'invoice' | 'credit_note',
  lang?: string,
): Promise<RenderedInvoice> {
  const doc = invoiceDocument({ sale, invoice, seller: await sellerIdentity(deps, scope), kind, lang });
  return { pdf: await deps.ports.render.invoicePdf(doc), number: doc.number };
}

/** The seller's copy: the invoice (issued now if it was not) or the credit note of a refund. */
export async function sellerDocument(ctx: OperationContext, saleId: string, kind: 'invoice' | 'credit_note', lang?: string): Promise<RenderedInvoice> {
  const sale = await findSale(ctx, ctx.scope, saleId);
  if (!sale) throw notFound('Order');
  const invoice = kind === 'invoice' ? (await issueInvoice(ctx, ctx.scope, sale)).invoice : await issueCreditNote(ctx, ctx.scope, sale);
  return render(ctx, ctx.scope, sale, invoice, kind, lang);
}

// ---- the buyer's side (the receipt token is the permission) ----

export interface BuyerInvoiceView {
  brand: SellerBrand;
  sale: SaleRecord;
  invoice: InvoiceRecord | undefined;
  scope: Scope;
}

export async function buyerInvoiceView(deps: Deps, token: string, baseUrl: string): Promise<BuyerInvoiceView | undefined> {
  const receipt = await receiptOfToken(deps, token);
  if (!receipt) return undefined;
  const scope = scopeOf(receipt.accountId, receipt.mode);
  const sale = await findSale(deps, scope, receipt.saleId);
  if (!sale) return undefined;
  const [brand, invoice] = await Promise.all([sellerBrand(deps, scope, baseUrl), getInvoice(deps.store, scope, sale._id)]);
  return { brand, sale, invoice, scope };
}

/** The buyer's company details, once, before the invoice exists: issuing it fixes them. */
export async function addBuyerDetails(deps: Deps, view: BuyerInvoiceView, details: InvoiceBuyerDetails): Promise<InvoiceRecord> {
  if (view.invoice) throw conflict('This invoice was already issued: its details can no longer change', 'INVOICE_ISSUED');
  const { invoice, issued } = await issueInvoice(deps, view.scope, view.sale, details);
  if (!issued) throw conflict('This invoice was already issued: its details can no longer change', 'INVOICE_ISSUED');
  return invoice;
}

export async function buyerDocument(deps: Deps, view: BuyerInvoiceView, kind: 'invoice' | 'credit_note', lang?: string): Promise<RenderedInvoice> {
  const invoice = kind === 'invoice' ? (await issueInvoice(deps, view.scope, view.sale)).invoice : await issueCreditNote(deps, view.scope, view.sale);
  return render(deps, view.scope, view.sale, invoice, kind, lang);
}
