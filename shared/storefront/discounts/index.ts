/** What other capabilities call on discounts (checkout, funnels): resolve a code, count a use (at completion, or claimed at payment), create a code in their transaction. */
export { claimDiscountUse, createDiscountOps, discountCodeOf, redeemDiscountOps, resolveDiscount } from './service';
