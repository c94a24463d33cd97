import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, createTestAccount, startTestRuntime, type TestAccount, settleWithRetries } from '../support/runtime';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;

beforeAll(async () => {
  runtime = await startTestRuntime();
  seller = await createTestAccount(runtime);
});
afterAll(async () => runtime?.stop());

async function buy(productId: string, extra: Record<string, unknown>, email: string) {
  const session = await seller.test.post('/checkout/sessions', {
    productId,
    successUrl: 'https://shop.example.com/thanks',
    cancelUrl: 'https://shop.example.com/cancel',
    ...extra,
  });
  expect(session.status, session.text).toBe(201);
  const paid = await control(runtime).post(`/_local/checkout/${session.body.id}/pay`, { email });
  expect(paid.status, paid.text).toBe(200);
  return paid.body as { status: string; saleId?: string };
}

describe('storefront records through a real checkout', () => {
  it('counts discount uses and credits referred sales to the partner with its commission', async () => {
    const productId = (await seller.test.post('/products', { name: 'Course', price: 80 })).body._id;
    const discount = (await seller.test.post('/discounts', { name: 'Once', code: 'ONCE25', value: 25, mainProductIds: [productId], maxUses: 1 })).body;
    const partner = (await seller.test.post('/partners', { name: 'Pat', email: 'pat@example.com', referralCode: 'PATREF', commissionPercent: 10 })).body;

    const first = await buy(productId, { discountCode: 'once25', referralCode: 'patref' }, 'buyer1@example.com');
    expect(first.saleId).toBeTruthy();
    await settleWithRetries(runtime);

    expect((await seller.test.get(`/discounts/${discount._id}`)).body.uses).toBe(1);
    const exhausted = await seller.test.get(`/discounts/apply/ONCE25/${productId}`);
    expect(exhausted.status).toBe(400);
    expect(exhausted.body.code).toBe('DISCOUNT_EXHAUSTED');
    expect((await seller.test.get(`/discounts/check-product/${productId}`)).body).toEqual({ hasDiscount: false });

    const sales = await seller.test.get('/partners/referrals/sales');
    expect(sales.body).toHaveLength(1);
    expect(sales.body[0]).toMatchObject({
      saleId: first.saleId,
      partnerId: partner._id,
      amount: 60,
      commission: 6,
      buyerEmail: 'buyer1@example.com',
      productId,
    });

    // A sale without a referral code credits nobody.
    await buy(productId, {}, 'buyer2@example.com');
    const stats = await seller.test.get('/partners/stats');
    expect(stats.body.totals).toEqual({ referrals: 0, sales: 1, revenue: 60, commission: 6 });
    expect(stats.body.partners[0]).toMatchObject({ partnerId: partner._id, sales: 1, revenue: 60, commission: 6 });
  });

  it("hands the seller the buyer's review link on the order; the buyer reviews once through it", async () => {
    const productId = (await seller.test.post('/products', { name: 'Guide', price: 15 })).body._id;
    const { saleId } = await buy(productId, {}, 'reviewer@example.com');
    await settleWithRetries(runtime);
    const order = await seller.test.get(`/orders/${saleId}`);
    // The token: the sale id and the receipt's 32-character secret.
    expect(order.body.reviewPath).toMatch(new RegExp(`^/reviews/submit/${saleId}[0-9A-Za-z]{32}$`));
    const buyer = control(runtime);
    // The sale id alone (public in webhooks) with a made-up secret permits nothing.
    expect((await buyer.post(`/reviews/submit/${saleId}${'x'.repeat(32)}`, { rating: 1 })).status).toBe(404);
    const review = await buyer.post(order.body.reviewPath, { rating: 5, title: 'Useful' });
    expect(review.status, review.text).toBe(201);
    expect((await buyer.post(order.body.reviewPath, { rating: 1 })).status).toBe(409);
    const reviews = await seller.test.get(`/reviews?productId=${productId}`);
    expect(reviews.body).toEqual([expect.objectContaining({ productId, rating: 5, title: 'Useful' })]);
  });
});
