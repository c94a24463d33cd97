import * as z from '../platform/zod';
import { sellerBrand } from '../account/branding';
import { parseMultipart } from '../platform/http/multipart';
import { badRequest } from '../platform/errors';
import { defineOperation, rawReply, reply, type UploadedFile } from '../platform/operation';
import type { OperationContext, PublicContext } from '../platform/context';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { receiptDownloadsPage } from './page';
import { beginUploadBody, completeUploadBody, fileParams, fileSchema, productParams, tokenParams, uploadAnswer, uploadFileBody, uploadParams } from './schemas';
import { abortUpload, beginUpload, completeUpload } from './uploads';
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
    summary:
      'Attach a file to a product (multipart/form-data, field `file`; or JSON { filename, contentType, contentBase64 }); every paid order of the product can download it',
    description:
      "A deliverable type (PDF, EPUB, ZIP, audio, video, images, fonts...) or an extension in the product's `allowedFileTypes`; up to 4 MB through this route (larger files, up to the plan's limit, upload in parts: POST /products/{id}/files/uploads; 413 names the limit); an empty file is 400. At most 20 files per product.",
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
    operationId: 'beginProductFileUpload',
    tool: 'begin_product_file_upload',
    summary: "Starts uploading a large file (up to the plan's limit, 2 GB at most) in parts straight to storage; answers a URL per part",
    description:
      "Declare the file: `name` (its extension decides the type), exact `size` in bytes, optional `contentType`. Everything is checked before a byte moves: over the plan's limit is 413 naming it, empty or a type the product does not allow is 400. Then PUT each part's bytes (`partSize` each, the last one the rest) to its URL, keep each answer's `ETag` header, and call complete. The URLs work for two hours; an upload not completed in a day is dropped. Files up to 4 MB may instead go through POST /products/{id}/files.",
    tags: ['Products'],
    method: 'POST',
    path: '/products/{id}/files/uploads',
    auth: 'key',
    params: productParams,
    body: beginUploadBody,
    output: uploadAnswer,
    status: 201,
    handler: (ctx, { params, body }) => beginUpload(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'completeProductFileUpload',
    tool: 'complete_product_file_upload',
    summary: 'Finishes a file uploaded in parts: joins them (each named with the ETag its PUT answered) and attaches the file to the product',
    description:
      'Parts listed in order 1..n. A missing part or an ETag that does not match is 400 and the upload stays open to send the part again; parts that do not add up to the declared size are 400 and the upload ends.',
    tags: ['Products'],
    method: 'POST',
    path: '/products/{id}/files/uploads/{uploadId}/complete',
    auth: 'key',
    params: uploadParams,
    body: completeUploadBody,
    output: fileSchema,
    status: 201,
    handler: (ctx, { params, body }) => completeUpload(ctx, params.id, params.uploadId, body.parts),
  }),
  defineOperation({
    operationId: 'abortProductFileUpload',
    tool: 'abort_product_file_upload',
    summary: 'Abandons a file upload in parts: its parts are dropped and nothing is attached',
    tags: ['Products'],
    method: 'DELETE',
    path: '/products/{id}/files/uploads/{uploadId}',
    auth: 'key',
    params: uploadParams,
    output: z.object({ uploadId: z.string(), aborted: z.literal(true) }),
    handler: (ctx, { params }) => abortUpload(ctx, params.id, params.uploadId),
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
    description:
      'Answers the bytes (locally) or a redirect to a presigned S3 address (AWS). 404 for any unknown token, 410 once expired, 403 after a refund or at the limit.',
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
    query: z.object({ lang: z.optional(z.string().check(z.maxLength(35))).check(z.describe("The buyer's language (the receipt's link carries it)")) }),
    handler: async (ctx, { params, query }) => {
      const access = await openReceiptAccess(ctx, params.token, base(ctx));
      const brand = await sellerBrand(ctx, access.scope, base(ctx));
      const t = await loadTranslator(
        negotiateLocale({ query: query.lang, acceptLanguage: ctx.request.headers['accept-language'], sellerDefault: brand.locale }),
      );
      const page = receiptDownloadsPage(brand, base(ctx), access.downloads, access.revoked, t);
      return rawReply(200, page.html, 'text/html; charset=utf-8', { ...page.headers, ...PRIVATE });
    },
  }),
];

/** The uploaded file: the multipart field `file`, or the JSON form's base64 bytes. */
function uploadedFile(
  body: { filename?: string; contentType?: string; contentBase64?: string } | undefined,
  files: Record<string, UploadedFile[]>,
): UploadedFile | undefined {
  if (files.file?.length || !body?.contentBase64) return files.file?.[0];
  if (!body.filename) throw badRequest('filename is required with contentBase64', { field: 'filename' });
  return { filename: body.filename, mimetype: body.contentType ?? '', content: Buffer.from(body.contentBase64, 'base64') };
}
