import type { PrivacyPart } from '../../platform/privacy';
import { salesOf } from '../../sales/privacy';
import { reviewEmailErasure, reviewsOfSales } from './repository';

/**
 * The buyer's reviews, found by their orders (one review per sale). Erasure takes the address off
 * each; the rating and text stay on the product page, which never showed who wrote them. The
 * receipt capability's address goes with the orders part (shared/sales/privacy.ts).
 */
const reviewsPart: PrivacyPart = {
  name: 'reviews',
  async *export(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      const reviews = await reviewsOfSales(
        deps.store,
        scope,
        sales.map((s) => s._id),
      );
      if (reviews.length) yield reviews;
    }
  },
  async erase(deps, scope, subject) {
    for await (const sales of salesOf(deps, scope, subject.customerId)) {
      for (const review of await reviewsOfSales(
        deps.store,
        scope,
        sales.map((s) => s._id),
      )) {
        if (review.buyerEmail) await reviewEmailErasure(deps.store, scope, review._id);
      }
    }
  },
};

export const reviewsPrivacy: PrivacyPart[] = [reviewsPart];
