import { DEFAULT_ACCENT } from '../account/branding-rules';
import type { SellerBrand } from '../account/branding';
import type { BuyerPage } from '../account/buyer-page';
import { isApiError } from '../platform/errors';
import { defineOperation, rawReply } from '../platform/operation';
import * as z from '../platform/zod';
import { missingInvoicePage, invoicePage } from './pages';
import { buyerDetails } from './rules';
import { languageQuery, orderParams, tokenParams } from './schemas';
import { addBuyerDetails, buyerDocument, buyerInvoiceView, sellerDocument, type RenderedInvoice } from './service';

const pdfReply = (rendered: RenderedInvoice) =>
  rawReply(200, rendered.pdf, 'application/pdf', { 'content-disposition': `attachment; filename="${rendered.number}.pdf"`, 'cache-control': 'no-store' });

const page = (status: number, built: BuyerPage) => rawReply(status, built.html, 'text/html; charset=utf-8', built.headers);

const NEUTRAL: SellerBrand = { name: 'Invoice', logoUrl: null, accent: DEFAULT_ACCENT, accentText: DEFAULT_ACCENT, onAccent: '#ffffff', supportEmail: null };

export const invoiceOperations = [
  defineOperation({
    operationId: 'getOrderInvoice',
    tool: 'get_order_invoice',
    summary: "The order's invoice as a PDF (numbered per seller without gaps, issued on first download), with the seller's legal name, address and tax id from branding",
    tags: ['Orders'],
    method: 'GET',
    path: '/orders/{id}/invoice.pdf',
    auth: 'key',
    params: orderParams,
    query: languageQuery,
    handler: async (ctx, { params, query }) => pdfReply(await sellerDocument(ctx, params.id, 'invoice', query.lang)),
  }),
  defineOperation({
    operationId: 'getOrderCreditNote',
    tool: 'get_order_credit_note',
    summary: 'The credit note of a refunded order as a PDF (its own number sequence); 409 NOT_REFUNDED before a refund',
    tags: ['Orders'],
    method: 'GET',
    path: '/orders/{id}/credit-note.pdf',
    auth: 'key',
    params: orderParams,
    query: languageQuery,
    handler: async (ctx, { params, query }) => pdfReply(await sellerDocument(ctx, params.id, 'credit_note', query.lang)),
  }),
  defineOperation({
    operationId: 'showBuyerInvoice',
    summary: "The buyer's invoice page (public; the receipt token is the permission): add company name, address and VAT ID, then download",
    tags: ['Orders'],
    method: 'GET',
    path: '/receipts/{token}/invoice',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    handler: async (ctx, { params }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return page(404, missingInvoicePage(NEUTRAL, ctx.request.baseUrl));
      return page(200, invoicePage({ brand: view.brand, baseUrl: ctx.request.baseUrl, token: params.token, sale: view.sale, invoice: view.invoice }));
    },
  }),
  defineOperation({
    operationId: 'addBuyerInvoiceDetails',
    summary: "The buyer's company details (form post or JSON { companyName?, address?, vatId? }); issues the invoice with them, once",
    tags: ['Orders'],
    method: 'POST',
    path: '/receipts/{token}/invoice',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    bodyType: 'json-or-form',
    body: z.optional(z.record(z.string(), z.unknown())),
    handler: async (ctx, { params, body }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return page(404, missingInvoicePage(NEUTRAL, ctx.request.baseUrl));
      // The token is the only permission (no cookie): a post a browser calls cross-site is refused.
      if (ctx.request.headers['sec-fetch-site'] === 'cross-site') return page(403, missingInvoicePage(view.brand, ctx.request.baseUrl));
      const values = body ?? {};
      try {
        const invoice = await addBuyerDetails(ctx, view, buyerDetails(values));
        return page(201, invoicePage({ brand: view.brand, baseUrl: ctx.request.baseUrl, token: params.token, sale: view.sale, invoice }));
      } catch (error) {
        if (!isApiError(error) || (error.status !== 400 && error.status !== 409)) throw error;
        const shown = { companyName: String(values.companyName ?? ''), address: String(values.address ?? ''), vatId: String(values.vatId ?? '') };
        return page(error.status, invoicePage({ brand: view.brand, baseUrl: ctx.request.baseUrl, token: params.token, sale: view.sale, invoice: view.invoice, values: shown, error: { message: error.message, field: error.field } }));
      }
    },
  }),
  defineOperation({
    operationId: 'downloadBuyerInvoice',
    summary: "The buyer's invoice as a PDF (public; the receipt token is the permission)",
    tags: ['Orders'],
    method: 'GET',
    path: '/receipts/{token}/invoice.pdf',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    query: languageQuery,
    handler: async (ctx, { params, query }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return page(404, missingInvoicePage(NEUTRAL, ctx.request.baseUrl));
      return pdfReply(await buyerDocument(ctx, view, 'invoice', query.lang));
    },
  }),
  defineOperation({
    operationId: 'downloadBuyerCreditNote',
    summary: "The buyer's credit note for a refund as a PDF (public; the receipt token is the permission)",
    tags: ['Orders'],
    method: 'GET',
    path: '/receipts/{token}/credit-note.pdf',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    query: languageQuery,
    handler: async (ctx, { params, query }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return page(404, missingInvoicePage(NEUTRAL, ctx.request.baseUrl));
      return pdfReply(await buyerDocument(ctx, view, 'credit_note', query.lang));
    },
  }),
];
