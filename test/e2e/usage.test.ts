import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { advanceDays, control, createOffer, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(async () => runtime?.stop());

const DAY = 86_400_000;
const PRICING = {
  seats: { enabled: true, unitPriceCents: 500, minimum: 2, maximum: 10 },
  meters: [{ key: 'api_calls', name: 'API calls', unitPriceCents: 2, includedUnits: 100 }],
};

async function usageOffer(account: TestAccount) {
  const offer = await createOffer(account, { name: 'Team plan', price: 10, frequency: 'monthly' });
  const res = await account.test.put(`/subscriptions/${offer._id}/usage-pricing`, PRICING);
  expect(res.status, res.text).toBe(200);
  return offer._id;
}

async function subscribe(account: TestAccount, offerId: string, email: string, quantity?: number) {
  const session = await openCheckout(account, offerId, quantity === undefined ? {} : { quantity });
  const paid = await pay(runtime, session.id, { email });
  return paid as { saleId: string; subscriberId: string };
}

const report = (account: TestAccount, id: string, body: unknown, key?: string) =>
  account.test.post(`/subscriptions/${id}/usage`, body, key ? { 'idempotency-key': key } : {});

describe('usage pricing', () => {
  it('needs Pro to turn on, names the field of a range error, and returns to flat pricing', async () => {
    const growth = await createTestAccount(runtime, 'tier2');
    const offer = await createOffer(growth, { name: 'Flat', price: 5, frequency: 'monthly' });
    const locked = await growth.test.put(`/subscriptions/${offer._id}/usage-pricing`, PRICING);
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('FEATURE_LOCKED');
    const flat = await growth.test.put(`/subscriptions/${offer._id}/usage-pricing`, { seats: { enabled: false }, meters: [] });
    expect(flat.status, flat.text).toBe(200);
    expect(flat.body.usageBilling).toBe(false);

    const pro = await createTestAccount(runtime, 'tier3');
    const id = (await createOffer(pro, { name: 'Metered', price: 5, frequency: 'monthly' }))._id;
    const cases: [unknown, string][] = [
      [{ ...PRICING, meters: [{ ...PRICING.meters[0], includedUnits: -1 }] }, 'meters[0].includedUnits'],
      [{ ...PRICING, seats: { ...PRICING.seats, maximum: 1 } }, 'seats.maximum'],
      [{ ...PRICING, seats: { ...PRICING.seats, unitPriceCents: 1.5 } }, 'seats.unitPriceCents'],
      [{ ...PRICING, meters: Array.from({ length: 6 }, (_, i) => ({ ...PRICING.meters[0], key: `m${i}` })) }, 'meters'],
      [{ ...PRICING, meters: [PRICING.meters[0], PRICING.meters[0]] }, 'meters[1].key'],
    ];
    for (const [body, field] of cases) {
      const res = await pro.test.put(`/subscriptions/${id}/usage-pricing`, body);
      expect(res.status, res.text).toBe(400);
      expect(res.text).toContain(field);
    }
    const on = await pro.test.put(`/subscriptions/${id}/usage-pricing`, PRICING);
    expect(on.status).toBe(200);
    expect((await pro.test.get(`/subscriptions/${id}`)).body.usagePricing).toEqual(PRICING);
    const off = await pro.test.put(`/subscriptions/${id}/usage-pricing`, { seats: { enabled: false }, meters: [] });
    expect(off.body.usagePricing.meters).toEqual([]);
  });
});

describe('usage reports and seats', () => {
  it('counts a keyed report once (replays, racing retries, reused key) and every keyless one', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offerId = await usageOffer(account);
    const { subscriberId } = await subscribe(account, offerId, 'keys@example.com');

    const first = await report(account, subscriberId, { meter: 'api_calls', quantity: 7 }, 'k-1');
    expect(first.status, first.text).toBe(201);
    expect(first.body).toMatchObject({ meter: 'api_calls', quantity: 7, replayed: false });
    const again = await report(account, subscriberId, { meter: 'api_calls', quantity: 7 }, 'k-1');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ _id: first.body._id, replayed: true });
    const reused = await report(account, subscriberId, { meter: 'api_calls', quantity: 8 }, 'k-1');
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const racing = await Promise.all(Array.from({ length: 12 }, () => report(account, subscriberId, { meter: 'api_calls', quantity: 5 }, 'race-1')));
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    expect(racing.filter((r) => r.status === 200)).toHaveLength(11);
    expect(new Set(racing.map((r) => r.body._id)).size).toBe(1);

    for (let i = 0; i < 3; i++) expect((await report(account, subscriberId, { meter: 'api_calls', quantity: 1 })).status).toBe(201);
    const bad = await report(account, subscriberId, { meter: 'storage', quantity: 1 });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('meter');

    const usage = await account.test.get(`/subscriptions/${subscriberId}/usage?limit=3`);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.currentPeriod.totals).toEqual({ api_calls: 7 + 5 + 3 });
    expect(usage.body.reports).toHaveLength(3);
    expect(usage.body.days).toHaveLength(1);
    const recorded = await events(runtime, account, 'usage.recorded');
    expect(recorded).toHaveLength(5);
    expect((await account.test.get(`/subscriptions/${subscriberId}/usage?limit=101`)).status).toBe(400);
    // The mem_ id reaches the same subscriber; another account's key does not.
    const mem = (await account.test.get(`/subscriptions/subscribers/${subscriberId}`)).body.membershipId;
    expect((await report(account, mem, { meter: 'api_calls', quantity: 1 })).status).toBe(201);
    const other = await createTestAccount(runtime, 'volume');
    expect((await report(other, subscriberId, { meter: 'api_calls', quantity: 1 })).status).toBe(404);
    expect((await account.live.get(`/subscriptions/${subscriberId}/usage`)).status).toBe(404);
  });

  it('answers 429 past 300 reports a minute for one subscriber, not for another', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offerId = await usageOffer(account);
    const a = (await subscribe(account, offerId, 'a@example.com')).subscriberId;
    const b = (await subscribe(account, offerId, 'b@example.com')).subscriberId;
    // Start at the top of a minute: the sliding window would otherwise carry part of this one into the next.
    const now = runtime.deps.clock.nowMs();
    await control(runtime).post('/_local/clock/advance', { seconds: Math.ceil((60_000 - (now % 60_000)) / 1000) + 1 });
    // The burst happens within one instant of the runtime's clock: on a busy machine 320 requests
    // can take longer than a real minute, and the window would rightly let the late ones through.
    const frozen = vi.spyOn(runtime.deps.clock, 'nowMs').mockReturnValue(runtime.deps.clock.nowMs());
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 16; i++)
        statuses.push(...(await Promise.all(Array.from({ length: 20 }, () => report(account, a, { meter: 'api_calls', quantity: 1 })))).map((r) => r.status));
      expect((await report(account, b, { meter: 'api_calls', quantity: 1 })).status).toBe(201);
    } finally {
      frozen.mockRestore();
    }
    expect(statuses.filter((s) => s === 201).length).toBe(300);
    expect(statuses.filter((s) => s === 429).length).toBe(20);
  });

  it('sells seats at checkout within the range and changes them with the documented refusals', async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offerId = await usageOffer(account);
    const tooMany = await account.test.post('/checkout/sessions', {
      productId: offerId,
      quantity: 11,
      successUrl: 'https://s.example.com/ok',
      cancelUrl: 'https://s.example.com/no',
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('quantity');
    const paid = await subscribe(account, offerId, 'seats@example.com', 3);
    const sales = (await account.test.get(`/orders/subscriptions/${paid.subscriberId}`)).body.sales;
    expect(sales.find((s: { _id: string }) => s._id === paid.saleId).amountCents).toBe(1000 + 3 * 500);
    // A code applied on the hosted page reprices the offer only; the seats keep their price.
    expect((await account.test.post('/discounts', { name: 'Half', code: 'HALF', valueType: 'percentage', value: 50, mainProductIds: [offerId] })).status).toBe(
      201,
    );
    const coded = await openCheckout(account, offerId, { quantity: 3 });
    const form = new FormData();
    form.set('intent', 'discount');
    form.set('discountCode', 'HALF');
    const applied = await fetch(coded.url, { method: 'POST', body: form });
    expect(applied.status).toBe(200);
    expect(await applied.text()).toContain('$20.00'); // $10 halved + 3 seats × $5
    const codedSale = (await pay(runtime, coded.id, { email: 'coded@example.com' })) as { saleId: string; subscriberId: string };
    const codedSales = (await account.test.get(`/orders/subscriptions/${codedSale.subscriberId}`)).body.sales;
    expect(codedSales.find((s: { _id: string }) => s._id === codedSale.saleId).amountCents).toBe(2000);
    const defaulted = await subscribe(account, offerId, 'default@example.com');
    expect((await account.test.get(`/subscriptions/${defaulted.subscriberId}/usage`)).body.currentPeriod.seats).toMatchObject({ purchased: 2, quantity: 2 });

    const id = paid.subscriberId;
    expect((await account.test.post(`/subscriptions/${id}/seats`, { quantity: 2 })).body.code).toBe('BELOW_PURCHASED_SEATS');
    const outside = await account.test.post(`/subscriptions/${id}/seats`, { quantity: 11 });
    expect(outside.status).toBe(400);
    const up = await account.test.post(`/subscriptions/${id}/seats`, { quantity: 5 });
    expect(up.status, up.text).toBe(200);
    expect(up.body).toMatchObject({ purchased: 3, quantity: 5 });
    expect((await account.test.post(`/subscriptions/${id}/cancel`)).status).toBe(200);
    expect((await account.test.post(`/subscriptions/${id}/seats`, { quantity: 6 })).status).toBe(200); // still active until period end
  });
});

describe('period close', () => {
  it('closes a period with meters and seat changes, charges it as a usage sale, then fails and retries on days 1, 3, 5, 7', { timeout: 420_000 }, async () => {
    const account = await createTestAccount(runtime, 'volume');
    const offerId = await usageOffer(account);
    const { subscriberId: id } = await subscribe(account, offerId, 'close@example.com', 3);
    const start = (await account.test.get(`/subscriptions/${id}/usage`)).body.currentPeriod;
    const length = Date.parse(start.periodEnd) - Date.parse(start.periodStart);

    expect((await report(account, id, { meter: 'api_calls', quantity: 150 })).status).toBe(201);
    await advanceDays(runtime, 6);
    expect((await account.test.post(`/subscriptions/${id}/seats`, { quantity: 5 })).status).toBe(200);
    const changedAt = Date.parse(start.periodStart) + 6 * DAY;
    expect((await report(account, id, { meter: 'api_calls', quantity: 25 })).status).toBe(201);
    const open = (await account.test.get(`/subscriptions/${id}/usage`)).body.currentPeriod;
    expect(open.meters[0]).toMatchObject({ quantity: 175, overageUnits: 75, amountCents: 150 });

    await advanceDays(runtime, 26);
    const closed = (await account.test.get(`/subscriptions/${id}/usage`)).body;
    expect(closed.periods).toHaveLength(1);
    const period = closed.periods[0];
    const seatPeriods = Math.round(((2 * (Date.parse(start.periodEnd) - changedAt)) / length) * 10_000) / 10_000;
    expect(period.seats.extraSeatPeriods).toBeCloseTo(seatPeriods, 3);
    expect(period.totals).toEqual({ api_calls: 175 });
    const amount = 150 + Math.round(seatPeriods * 500);
    expect(period.charge).toMatchObject({ status: 'paid', amountCents: amount, retries: 0 });
    const sale = (await account.test.get(`/orders/subscriptions/${id}`)).body.sales.find((s: { _id: string }) => s._id === period.charge.saleId);
    expect(sale).toMatchObject({ billingReason: 'usage', type: 'subscription', amountCents: amount });
    const closedEvents = await events(runtime, account, 'usage.period_closed');
    expect(closedEvents).toHaveLength(1);
    expect(closedEvents[0]!.data.amountCents).toBe(amount);
    // The new period started with 5 seats, and usage counts there.
    expect(closed.currentPeriod.totals).toEqual({});
    expect(closed.currentPeriod.seats).toMatchObject({ purchased: 3, quantity: 5 });

    // Second period: the card declines from now on.
    expect((await report(account, id, { meter: 'api_calls', quantity: 110 })).status).toBe(201);
    expect((await control(runtime).post(`/_local/subscribers/${id}/card`, { outcome: 'declines' })).status).toBe(200);
    const second = closed.currentPeriod;
    const advanceTo = async (at: number) =>
      control(runtime).post('/_local/clock/advance', { seconds: Math.max(1, Math.ceil((at - runtime.deps.clock.nowMs()) / 1000)) });
    const charge = async () => (await account.test.get(`/subscriptions/${id}/usage`)).body.periods[0].charge;
    await advanceTo(Date.parse(second.periodEnd) + 3600_000);
    let c = await charge();
    const failedAt = Date.parse(c.firstFailedAt);
    expect(failedAt).toBeGreaterThanOrEqual(Date.parse(second.periodEnd));
    expect(c).toMatchObject({ status: 'failed', retries: 0, amountCents: 20 + 2 * 500, nextRetryAt: new Date(failedAt + DAY).toISOString() });
    for (const [day, retries, next] of [
      [1, 1, 3],
      [3, 2, 5],
      [5, 3, 7],
    ] as const) {
      await advanceTo(failedAt + day * DAY + 3600_000);
      c = await charge();
      expect(c).toMatchObject({ status: 'failed', retries, nextRetryAt: new Date(failedAt + next * DAY).toISOString() });
    }
    await advanceTo(failedAt + 7 * DAY + 3600_000);
    c = await charge();
    expect(c).toMatchObject({ status: 'uncollectible', retries: 4, nextRetryAt: null, saleId: null });
    // Readable still, after the subscription ended and whatever the plan.
    expect((await account.test.get(`/subscriptions/${id}/usage`)).status).toBe(200);
  });
});
