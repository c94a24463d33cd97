import * as z from '../platform/zod';
import { sellerBrand } from '../account/branding';
import { parseMultipart } from '../platform/http/multipart';
import { badRequest } from '../platform/errors';
import { defineOperation, rawReply, reply, type UploadedFile } from '../platform/operation';
import type { OperationContext, PublicContext } from '../platform/context';
import { receiptDownloadsPage } from './page';
import { buyerLanguage } from '../account/buyer-language';
import { langQuery } from '../platform/i18n/query';
import { fileParams, fileSchema, productParams, tokenParams, uploadFileBody } from './schemas';
import { openReceiptAccess } from './links';
import { addProductFile, deleteProductFile, listProductFiles, openDownload } from './service';

const base = (ctx: OperationContext | PublicContext) => (ctx.config.PUBLIC_BASE_URL ?? ctx.request.baseUrl).replace(/\/$/, '');
const attachmentName = (filename: string) => `attachment; filename="${filename.replace(/[^\w.-]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
const PRIVATE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

/** The files a product delivers (seller), and the signed downloads its buyers get (public, token-bound). */
export const productFileOperations = [
  defineOperation({
    operationId: 'uploadProductFile',
    tool: 'upload_product_file',
    summary: 'Attach a file to a product (multipart/form-data, field `file`; or JSON { filename, contentType, contentBase64 }); every paid order of the product can download it',
    description:
      "A deliverable type (PDF, EPUB, ZIP, audio, video, images, fonts...) or an extension in the product's `allowedFileTypes`; at most the plan's file size (413 names it); an empty file is 400. At most 20 files per product.",
    tags: ['Products'],
    method: 'POST',
    path: '/products/{id}/files',
    auth: 'key',
    params: productParams,
    bodyType: 'json-or-multipart',
    multipart: parseMultipart,
    body: uploadFileBody,
    output: fileSchema,
    status: 201,
    handler: async (ctx, { params, body, files }) => {
      const length = Number(ctx.request.headers['content-length']);
      return addProductFile(ctx, params.id, uploadedFile(body, files), Number.isFinite(length) && length > 0 ? length : undefined);
    },
  }),
  defineOperation({
    operationId: 'listProductFiles',
    tool: 'list_product_files',
    summary: 'The files a product delivers to its buyers, oldest first',
    tags: ['Products'],
    method: 'GET',
    path: '/products/{id}/files',
    auth: 'key',
    params: productParams,
    output: z.array(fileSchema),
    handler: async (ctx, { params }) => listProductFiles(ctx, params.id),
  }),
  defineOperation({
    operationId: 'deleteProductFile',
    tool: 'delete_product_file',
    summary: 'Removes a file from a product; links already handed out stop working',
    tags: ['Products'],
    method: 'DELETE',
    path: '/products/{id}/files/{fileId}',
    auth: 'key',
    params: fileParams,
    output: z.object({ _id: z.string(), deleted: z.literal(true) }),
    handler: async (ctx, { params }) => deleteProductFile(ctx, params.id, params.fileId),
  }),
  defineOperation({
    operationId: 'downloadProductFile',
    summary: "Downloads a purchased file through its signed link (an hour); counts against the order's download limit",
    description: 'Answers the bytes (locally) or a redirect to a presigned S3 address (AWS). 404 for any unknown token, 410 once expired, 403 after a refund or at the limit.',
    tags: ['Checkout'],
    method: 'GET',
    path: '/downloads/{token}',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    handler: async (ctx, { params }) => {
      const opened = await openDownload(ctx, params.token);
      if (opened.kind === 'redirect') return reply(302, undefined, { location: opened.location, ...PRIVATE });
      return rawReply(200, opened.body, opened.contentType, { 'content-disposition': attachmentName(opened.filename), ...PRIVATE });
    },
  }),
  defineOperation({
    operationId: 'getOrderDownloadsPage',
    summary: "The download page a receipt links to (HTML): signs fresh links to the order's files on each visit",
    tags: ['Checkout'],
    method: 'GET',
    path: '/downloads/orders/{token}',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      const access = await openReceiptAccess(ctx, params.token, base(ctx));
      const brand = await sellerBrand(ctx, access.scope, base(ctx));
      // The receipt's link carries the receipt's language (?lang=); else the browser's, the seller's default.
      const t = await buyerLanguage(ctx, access.scope, { query: query.lang, acceptLanguage: ctx.request.headers['accept-language'], sellerDefault: brand.locale ?? null });
      const page = receiptDownloadsPage(brand, base(ctx), access.downloads, access.revoked, t);
      return rawReply(200, page.html, 'text/html; charset=utf-8', { ...page.headers, ...PRIVATE });
    },
  }),
];

/** The uploaded file: the multipart field `file`, or the JSON form's base64 bytes. */
function uploadedFile(body: { filename?: string; contentType?: string; contentBase64?: string } | undefined, files: Record<string, UploadedFile[]>): UploadedFile | undefined {
  if (files.file?.length || !body?.contentBase64) return files.file?.[0];
  if (!body.filename) throw badRequest('filename is required with contentBase64', { field: 'filename' });
  return { filename: body.filename, mimetype: body.contentType ?? '', content: Buffer.from(body.contentBase64, 'base64') };
}
