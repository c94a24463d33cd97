import { allEvents } from '../../shared/events/repository';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDeps } from '../support/store';
import type { Deps } from '../../shared/platform/context';
import { keys, scopeOf, type Scope } from '../../shared/store/keys';
import { toItem } from '../../shared/store/items';
import { ConditionFailed, type Store } from '../../shared/store/store';
import { PRODUCT, type ProductRecord } from '../../shared/catalog/records';
import { objectId } from '../../shared/platform/ids';
import { createDiscount, getDiscount, redeemDiscountOps, resolveDiscount } from '../../shared/storefront/discounts/service';
import { createPartner, partnerStats, referralSaleOps } from '../../shared/storefront/partners/service';
import { listReviews, submitReview } from '../../shared/storefront/reviews/service';
import { RECEIPT_CAPABILITY_ENTITY, RECEIPT_CAPABILITY_KIND, type ReceiptCapability } from '../../shared/storefront/reviews/records';

let deps: Deps;
let store: Store;
const scope: Scope = scopeOf('0123456789abcdef01234567', 'test');

/** A product written in the catalog's record shape (the catalog owns the real create path). */
async function product(priceCents: number): Promise<string> {
  const now = deps.clock.now().toISOString();
  const record: ProductRecord = {
    _id: objectId(deps.clock),
    name: 'P',
    priceCents,
    currency: 'USD',
    productType: 'digital',
    published: true,
    testMode: true,
    createdAt: now,
    updatedAt: now,
  };
  await store.put(toItem(keys.entity(scope, PRODUCT, record._id), 'Product', record));
  return record._id;
}

beforeAll(async () => {
  ({ deps, store } = await createTestDeps());
});

describe('resolveDiscount and redemption (the checkout contract)', () => {
  it('prices a sale with a code and counts uses up to maxUses', async () => {
    const productId = await product(5000);
    const discount = await createDiscount(deps, scope, { name: 'D', code: 'Twice', valueType: 'fixed', value: 12.5, mainProductIds: [productId], maxUses: 2 });
    const resolved = await resolveDiscount(deps, scope, 'twice', productId, 5000);
    expect(resolved).toEqual({ discountId: discount._id, code: 'Twice', amountOffCents: 1250, finalPriceCents: 3750 });

    await store.transact(redeemDiscountOps(scope, discount._id));
    await store.transact(redeemDiscountOps(scope, discount._id));
    expect((await getDiscount(deps, scope, discount._id)).uses).toBe(2);
    await expect(store.transact(redeemDiscountOps(scope, discount._id))).rejects.toBeInstanceOf(ConditionFailed);
    await expect(resolveDiscount(deps, scope, 'TWICE', productId, 5000)).rejects.toMatchObject({ status: 400, code: 'DISCOUNT_EXHAUSTED' });
    await expect(resolveDiscount(deps, scope, 'nope', productId, 5000)).rejects.toMatchObject({ status: 404 });
    await expect(resolveDiscount(deps, scope, 'twice', await product(100), 100)).rejects.toMatchObject({ status: 400, code: 'DISCOUNT_NOT_APPLICABLE' });
    // Another mode never sees the code.
    await expect(resolveDiscount(deps, { ...scope, mode: 'live' }, 'twice', productId, 5000)).rejects.toMatchObject({ status: 404 });
  });
});

describe('referralSaleOps (the checkout contract)', () => {
  it('credits a sale once to the partner of the code, with its commission', async () => {
    const partner = await createPartner(deps, scope, { name: 'P', email: 'p@example.com', referralCode: 'Pals', commissionPercent: 30 });
    const input = { referralCode: 'PALS', saleId: objectId(deps.clock), amountCents: 1999, currency: 'USD', buyerEmail: 'b@example.com', productId: 'x' };
    const ops = await referralSaleOps(deps, scope, input);
    expect(ops).toHaveLength(1);
    await store.transact(ops);
    await expect(store.transact(await referralSaleOps(deps, scope, input))).rejects.toBeInstanceOf(ConditionFailed);
    expect(await referralSaleOps(deps, scope, { ...input, referralCode: 'unknown' })).toEqual([]);
    expect(await referralSaleOps(deps, scope, { ...input, referralCode: '' })).toEqual([]);
    expect(await referralSaleOps(deps, { ...scope, mode: 'live' }, input)).toEqual([]);
    const stats = await partnerStats(deps, scope, 'USD');
    expect(stats.partners.find((p) => p.partnerId === partner._id)).toMatchObject({ sales: 1, revenue: 19.99, commission: 6 });
  });
});

describe('submitReview', () => {
  it('stores one review per sale under the seller with its event, and 404s unknown tokens', async () => {
    const token = `rcpt_${objectId(deps.clock)}`;
    const receipt: ReceiptCapability = {
      accountId: scope.accountId,
      mode: scope.mode,
      saleId: objectId(deps.clock),
      productId: 'prod1',
      buyerEmail: 'b@example.com',
      customerId: 'cust1',
    };
    await store.put(toItem(keys.capability(RECEIPT_CAPABILITY_KIND, token), RECEIPT_CAPABILITY_ENTITY, receipt));
    const review = await submitReview(deps, token, { rating: 4, title: 'Good' });
    expect(review).toMatchObject({ productId: 'prod1', saleId: receipt.saleId, rating: 4, title: 'Good', body: null, customerId: 'cust1' });
    await expect(submitReview(deps, token, { rating: 5 })).rejects.toMatchObject({ status: 409, code: 'ALREADY_REVIEWED' });
    await expect(submitReview(deps, 'unknown', { rating: 5 })).rejects.toMatchObject({ status: 404 });
    expect(await listReviews(deps, scope, 'prod1')).toEqual([review]);
    expect(await listReviews(deps, scope, 'prod2')).toEqual([]);
    const events = await allEvents(store, scope);
    expect(events.filter((e) => e.type === 'review.created')).toHaveLength(1);
  });
});
