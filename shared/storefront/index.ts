import { defineCapability } from '../platform/capability';
import { storefrontOperations } from './operations';

/** What a seller arranges around products: discounts, upsells, images, pages, partners, reviews, refund policies. */
export const storefront = defineCapability({ name: 'storefront', operations: storefrontOperations, needs: ['table', 'blob'], eventTypes: ['review.created'] });
