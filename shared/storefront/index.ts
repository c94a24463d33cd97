import { defineCapability } from '../platform/capability';
import { storefrontOperations } from './operations';
import { reviewsPrivacy } from './reviews/privacy';

/**
 * What a seller arranges around products: discounts, upsells, images, pages, partners, reviews,
 * refund policies. Each is a sub-folder in the catalog shape; together they are one API group
 * (one `storefront` function) so the routes and CDK resources stay as they were.
 */
export const storefront = defineCapability({
  name: 'storefront',
  build: {
    manifest: { url: import.meta.url, export: 'storefront' },
    privacy: './reviews/privacy#reviewsPrivacy',
    operations: './operations#storefrontOperations',
  },
  operations: storefrontOperations,
  privacy: reviewsPrivacy,
  needs: ['table', 'blob'],
  eventTypes: ['review.created'],
});
