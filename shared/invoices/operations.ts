import { DEFAULT_ACCENT } from '../account/branding-rules';
import type { SellerBrand } from '../account/branding';
import type { BuyerPage } from '../account/buyer-page';
import { isApiError } from '../platform/errors';
import { defineOperation, rawReply } from '../platform/operation';
import * as z from '../platform/zod';
import { missingInvoicePage, invoicePage } from './pages';
import { buyerDetails } from './rules';
import { languageQuery, orderParams, tokenParams } from './schemas';
import { buyerLanguage, requestLanguage } from '../account/buyer-language';
import type { PublicContext } from '../platform/context';
import { matchLocale } from '../platform/i18n/locales';
import { langQuery } from '../platform/i18n/query';
import { addBuyerDetails, buyerDocument, buyerInvoiceView, sellerDocument, type BuyerInvoiceView, type RenderedInvoice } from './service';

const pdfReply = (rendered: RenderedInvoice) =>
  rawReply(200, rendered.pdf, 'application/pdf', { 'content-disposition': `attachment; filename="${rendered.number}.pdf"`, 'cache-control': 'no-store' });

const page = (status: number, built: BuyerPage) => rawReply(status, built.html, 'text/html; charset=utf-8', built.headers);

/** The buyer's language: ?lang=, their saved one, the browser's, the seller's default. */
const pageLanguage = (ctx: PublicContext, view: BuyerInvoiceView, lang: string | undefined) =>
  buyerLanguage(ctx, view.scope, {
    query: lang,
    email: view.sale.buyerEmail,
    acceptLanguage: ctx.request.headers['accept-language'],
    sellerDefault: view.brand.locale ?? null,
  });
const missing = async (ctx: PublicContext, lang: string | undefined) =>
  page(404, missingInvoicePage(NEUTRAL, ctx.request.baseUrl, await requestLanguage(lang, ctx.request.headers['accept-language'])));

const NEUTRAL: SellerBrand = { name: 'Invoice', logoUrl: null, accent: DEFAULT_ACCENT, accentText: DEFAULT_ACCENT, onAccent: '#ffffff', supportEmail: null };

export const invoiceOperations = [
  defineOperation({
    operationId: 'getOrderInvoice',
    tool: 'get_order_invoice',
    summary:
      "The order's invoice as a PDF (numbered per seller without gaps, issued on first download), with the seller's legal name, address and tax id from branding",
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
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return missing(ctx, query.lang);
      const t = await pageLanguage(ctx, view, query.lang);
      return page(
        200,
        invoicePage({
          brand: view.brand,
          baseUrl: ctx.request.baseUrl,
          token: params.token,
          sale: view.sale,
          invoice: view.invoice,
          t,
          explicitLanguage: !!matchLocale(query.lang),
        }),
      );
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
    query: langQuery,
    handler: async (ctx, { params, body, query }) => {
      const view = await buyerInvoiceView(ctx, params.token, ctx.request.baseUrl);
      if (!view) return missing(ctx, query.lang);
      // The token is the only permission (no cookie): a post a browser calls cross-site is refused.
      if (ctx.request.headers['sec-fetch-site'] === 'cross-site')
        return page(403, missingInvoicePage(view.brand, ctx.request.baseUrl, await requestLanguage(query.lang, ctx.request.headers['accept-language'])));
      const values = body ?? {};
      const t = await pageLanguage(ctx, view, query.lang);
      const shape = { brand: view.brand, baseUrl: ctx.request.baseUrl, token: params.token, sale: view.sale, t, explicitLanguage: !!matchLocale(query.lang) };
      try {
        const invoice = await addBuyerDetails(ctx, view, buyerDetails(values));
        return page(201, invoicePage({ ...shape, invoice }));
      } catch (error) {
        if (!isApiError(error) || (error.status !== 400 && error.status !== 409)) throw error;
        const shown = { companyName: String(values.companyName ?? ''), address: String(values.address ?? ''), vatId: String(values.vatId ?? '') };
        return page(
          error.status,
          invoicePage({ ...shape, invoice: view.invoice, values: shown, error: { message: error.message, field: error.field, status: error.status } }),
        );
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
      if (!view) return missing(ctx, query.lang);
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
      if (!view) return missing(ctx, query.lang);
      return pdfReply(await buyerDocument(ctx, view, 'credit_note', query.lang));
    },
  }),
];
