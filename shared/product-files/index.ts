import { defineCapability } from '../platform/capability';
import { productFileOperations } from './operations';
import { productFilesPrivacy } from './privacy';

/**
 * The files a product delivers: seller uploads and files imports attach, one capability; buyers
 * of a completed order get short-lived signed links (order read, thank-you page, receipt page),
 * counted against the product's per-order limit and revoked by a full refund or a dispute (in
 * the sales capability's own refund transaction).
 * Served on the checkout function, beside the checkout and the thank-you routes.
 */
export const productFiles = defineCapability({
  name: 'product-files',
  build: {
    manifest: { url: import.meta.url, export: 'productFiles' },
    privacy: './privacy#productFilesPrivacy',
    operations: './operations#productFileOperations',
  },
  operations: productFileOperations,
  privacy: productFilesPrivacy,
  apiFunction: 'checkout',
  needs: ['table', 'blob'],
});
