import * as z from '../platform/zod';
import { defineOperation, rawReply } from '../platform/operation';
import { openDownload } from './downloads';

const attachmentName = (filename: string) => `attachment; filename="${filename.replace(/[^\w.-]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;

/** The download link a buyer gets on the thank-you page and in the receipt (public, token-bound). */
export const downloadOperations = [
  defineOperation({
    operationId: 'downloadProductFile',
    summary: 'Downloads a purchased product file through its capability link (from the thank-you page or the receipt); 404 for any mismatch, 410 once expired',
    tags: ['Checkout'],
    method: 'GET',
    path: '/downloads/{productId}/{token}',
    auth: 'public',
    unmetered: true,
    params: z.object({ productId: z.string().check(z.minLength(1), z.maxLength(64)), token: z.string().check(z.minLength(1), z.maxLength(64)) }),
    handler: async (ctx, { params }) => {
      const file = await openDownload(ctx, params.productId, params.token);
      return rawReply(200, file.body, file.contentType, {
        'content-disposition': attachmentName(file.filename),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      });
    },
  }),
];
