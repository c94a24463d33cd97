import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '../../shared/local/runtime';
import type { DomainEvent } from '../../shared/platform/events';
import { control, createOffer, createProduct, pay } from '../support/commerce';
import { createTestAccount, settleWithRetries, type ApiClient, type TestAccount } from '../support/runtime';
import { startTestRuntime } from '../support/runtime';

let runtime: LocalRuntime;
let seller: TestAccount;
let other: TestAccount;
let today: string;

const dayBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
const summary = async (api: ApiClient, from = today, to = today) => {
  const res = await api.get(`/analytics/summary?from=${from}&to=${to}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const outbox = async (account: TestAccount, mode: 'test' | 'live', type: string): Promise<DomainEvent[]> =>
  (await control(runtime).get(`/_local/events?accountId=${account.accountId}&mode=${mode}&type=${type}`)).body.events;

async function buy(api: ApiClient, id: string, email: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/checkout/sessions', {
    productId: id,
    successUrl: 'https://shop.example.com/thanks',
    cancelUrl: 'https://shop.example.com/cart',
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return pay(runtime, res.body.id, { email });
}

beforeAll(async () => {
  runtime = await startTestRuntime();
  [seller, other] = await Promise.all([createTestAccount(runtime, 'tier3'), createTestAccount(runtime, 'tier3')]);
  today = ((await control(runtime).post('/_local/clock/advance', { seconds: 0 })).body.now as string).slice(0, 10);
});
afterAll(() => runtime?.stop());

describe('GET /analytics/summary', () => {
  it('answers gross, refunds, net, sales, MRR and active subscribers of the key’s mode from the rollups', { timeout: 120_000 }, async () => {
    const product = await createProduct(seller, { name: 'Ebook', price: 30 });
    const monthly = await createOffer(seller, { name: 'Club', price: 20, frequency: 'monthly' });
    const yearly = await createOffer(seller, { name: 'Club yearly', price: 120, frequency: 'yearly' });
    expect(
      (await seller.test.post('/discounts', { name: 'Quarter off', code: 'CLUB25', valueType: 'percentage', value: 25, mainProductIds: [monthly._id] })).status,
    ).toBe(201);

    const first = await buy(seller.test, product._id, 'a@example.com');
    await buy(seller.test, product._id, 'b@example.com');
    const discounted = await buy(seller.test, monthly._id, 'c@example.com', { discountCode: 'CLUB25' });
    await buy(seller.test, yearly._id, 'd@example.com');
    await settleWithRetries(runtime);
    expect((await control(runtime).post(`/_local/sales/${first.saleId}/refund`, { amountCents: 1000 })).status).toBe(200);
    await settleWithRetries(runtime);

    const test = await summary(seller.test);
    expect(test.currency).toBe('USD');
    // 2 × 30 + 15 (20 less 25 %) + 120; 10 refunded.
    expect(test.totals).toEqual({ grossCents: 19_500, refundsCents: 1_000, netCents: 18_500, sales: 4, recoveredCents: 0, recoveredSales: 0 });
    expect(test.days).toEqual([
      {
        date: today,
        grossCents: 19_500,
        refundsCents: 1_000,
        netCents: 18_500,
        sales: 4,
        recoveredCents: 0,
        recoveredSales: 0,
        newSubscribers: 2,
        churnedSubscribers: 0,
      },
    ]);
    // What they pay per month: 15 (discounted) + 120 / 12.
    expect(test.mrrCents).toBe(2_500);
    expect(test.activeSubscribers).toBe(2);

    // A range gives one row per day, the days without sales at zero.
    const week = await summary(seller.test, dayBefore(today, 6), today);
    expect(week.days.map((d: { date: string }) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => dayBefore(today, n)));
    expect(week.days.slice(0, 6).every((d: { sales: number; grossCents: number }) => d.sales === 0 && d.grossCents === 0)).toBe(true);
    expect(week.totals).toEqual(test.totals);

    // Live mode and another account see none of it.
    expect(await summary(seller.live)).toMatchObject({ totals: { grossCents: 0, refundsCents: 0, netCents: 0, sales: 0 }, mrrCents: 0, activeSubscribers: 0 });
    expect(await summary(other.test)).toMatchObject({ totals: { grossCents: 0, sales: 0 }, mrrCents: 0, activeSubscribers: 0 });
    // A live sale counts in live mode only.
    const liveProduct = (await seller.live.post('/products', { name: 'Live ebook', price: 40 })).body;
    await buy(seller.live, liveProduct._id, 'live@example.com');
    await settleWithRetries(runtime);
    expect((await summary(seller.live)).totals).toEqual({
      grossCents: 4_000,
      refundsCents: 0,
      netCents: 4_000,
      sales: 1,
      recoveredCents: 0,
      recoveredSales: 0,
    });
    expect((await summary(seller.test)).totals).toEqual(test.totals);

    // A paused subscriber pays nothing for now, and is not active (status paused): out of both.
    expect((await seller.test.post(`/subscriptions/${discounted.subscriberId}/pause`, {})).status).toBe(200);
    await settleWithRetries(runtime);
    expect(await summary(seller.test)).toMatchObject({ mrrCents: 1_000, activeSubscribers: 1, totals: test.totals });
    expect((await summary(seller.test)).days[0]).toMatchObject({ newSubscribers: 2, churnedSubscribers: 1 });
    expect((await seller.test.post(`/subscriptions/${discounted.subscriberId}/resume`, {})).status).toBe(200);
    await settleWithRetries(runtime);
    expect(await summary(seller.test)).toMatchObject({ mrrCents: 2_500, activeSubscribers: 2 });
    // Resuming counts as a new (returning) subscriber of the day.
    expect((await summary(seller.test)).days[0]).toMatchObject({ newSubscribers: 3, churnedSubscribers: 1 });
  });

  it('counts a redelivered event once, even when the deliveries race', { timeout: 60_000 }, async () => {
    const before = await summary(seller.test);
    const replay = [
      ...(await outbox(seller, 'test', 'order.completed')),
      ...(await outbox(seller, 'test', 'order.refunded')),
      ...(await outbox(seller, 'test', 'customer.subscription.created')),
      ...(await outbox(seller, 'test', 'customer.subscription.pause')),
    ];
    expect(replay.length).toBeGreaterThanOrEqual(7);
    // At-least-once delivery, as EventBridge may do: every event twice more, at the same time.
    await Promise.all([runtime.adapters.bus.publish(replay), runtime.adapters.bus.publish(replay)]);
    await settleWithRetries(runtime);
    expect(await summary(seller.test)).toEqual(before);
  });

  it('refuses bad dates and ranges with 400 and the reason', async () => {
    const bad = async (query: string, reason: RegExp) => {
      const res = await seller.test.get(`/analytics/summary?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.text).toMatch(reason);
    };
    await bad(`from=2026-02-30&to=2026-03-02`, /from must be a date/);
    await bad(`from=2026-01-01&to=tomorrow`, /to/);
    await bad(`to=2026-01-01`, /from/);
    await bad(`from=2026-03-02&to=2026-03-01`, /not be before/);
    await bad(`from=2025-01-01&to=2026-01-02`, /at most 366 days/);
    await bad(`from=2026-01-01&to=2026-01-02&currency=dollars`, /currency/);
    // 366 days is the most it answers.
    expect((await seller.test.get(`/analytics/summary?from=2024-01-01&to=2024-12-31`)).status).toBe(200);
  });
});
