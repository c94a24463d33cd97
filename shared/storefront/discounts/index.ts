/** What other capabilities call on discounts (checkout, funnels): resolve a code, count a use, create a code in their transaction. */
export { createDiscountOps, redeemDiscountOps, resolveDiscount } from './service';
