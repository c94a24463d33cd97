import { creatorPageOperations } from './creator-pages/operations';
import { discountOperations } from './discounts/operations';
import { imageOperations } from './images/operations';
import { partnerOperations } from './partners/operations';
import { refundPolicyOperations } from './refund-policies/operations';
import { reviewOperations } from './reviews/operations';
import { upsellOperations } from './upsells/operations';

/**
 * The storefront API group: the sub-capabilities' operations in one list, so they stay one Lambda
 * function (`storefront`) and one set of routes. The order is the order of the routes.
 */
export const storefrontOperations = [
  ...discountOperations,
  ...upsellOperations,
  ...imageOperations,
  ...creatorPageOperations,
  ...partnerOperations,
  ...reviewOperations,
  ...refundPolicyOperations,
];
