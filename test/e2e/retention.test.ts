import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, startTestRuntime, type TestAccount } from '../support/runtime';
import { advanceDays, control, createOffer, events, openCheckout, pay } from '../support/commerce';
import type { LocalRuntime } from '../../shared/local/runtime';

let runtime: LocalRuntime;
beforeAll(async () => {
  runtime = await startTestRuntime({ RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(async () => runtime?.stop());

const DAY_MS = 86_400_000;

async function subscribe(account: TestAccount, offerId: string, email: string) {
  const session = await openCheckout(account, offerId);
  return (await pay(runtime, session.id, { email })) as { saleId: string; subscriberId: string };
}

const declines = async (subscriberId: string, outcome: 'declines' | 'pays' = 'declines') => {
  const res = await control(runtime).post(`/_local/subscribers/${subscriberId}/card`, { outcome });
  expect(res.status, res.text).toBe(200);
};

const subscriber = async (account: TestAccount, id: string) => (await account.test.get(`/subscriptions/subscribers/${id}`)).body;
const about = (list: { data: Record<string, any> }[], subscriberId: string) => list.filter((e) => e.data.subscriptionCustomerId === subscriberId);

describe('recovery settings', () => {
  it('reads defaults, needs Pro to turn on, switching off stays open, and checks the body', async () => {
    const free = await createTestAccount(runtime, 'free');
    const read = await free.test.get('/subscription-retention/recovery/settings');
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ enabled: false, finalAction: 'cancel', emailBuyer: true, retryDays: [1, 3, 6] });
    const locked = await free.test.put('/subscription-retention/recovery/settings', { enabled: true });
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({ code: 'FEATURE_LOCKED', details: { requiredPlan: 'tier3' } });
    const off = await free.test.put('/subscription-retention/recovery/settings', { enabled: false, finalAction: 'keep' });
    expect(off.status, off.text).toBe(200);
    expect(off.body.finalAction).toBe('keep');
    const bad = await free.test.put('/subscription-retention/recovery/settings', { finalAction: 'delete' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('finalAction');
    const summary = await free.test.get('/subscription-retention/recovery/summary?days=30');
    expect(summary.body).toEqual({
      days: 30,
      recovered: [],
      recoveredCount: 0,
      atRisk: [],
      atRiskCount: 0,
      lostCount: 0,
      recoveryRate: 0,
      entitlement: { allowed: false, requiredPlan: 'tier3' },
    });
  });

  it('keeps each account and mode to its own settings and cases', async () => {
    const a = await createTestAccount(runtime, 'tier3');
    const b = await createTestAccount(runtime, 'tier3');
    expect((await a.test.put('/subscription-retention/recovery/settings', { enabled: true, finalAction: 'pause' })).status).toBe(200);
    expect((await b.test.get('/subscription-retention/recovery/settings')).body.enabled).toBe(false);
    expect((await a.live.get('/subscription-retention/recovery/settings')).body.enabled).toBe(false);
    const offer = await createOffer(a, { name: 'A only', price: 9, frequency: 'monthly' });
    expect((await b.test.get(`/subscription-retention/offers/${offer._id}`)).status).toBe(404);
    const foreign = await b.test.put(`/subscription-retention/offers/${offer._id}`, { saveOffers: { enabled: true } });
    expect(foreign.status, foreign.text).toBe(404);
    expect((await a.live.get(`/subscription-retention/offers/${offer._id}`)).status).toBe(404);
    expect((await b.test.get('/subscription-retention/offers')).body.data).toEqual([]);
  });
});

describe('recovery lifecycle', () => {
  it('retries on days 1, 3 and 6, recovers on a retry, and applies each final action on day 7', async () => {
    // One account per final action; the subscriber that recovers shares the cancel account.
    const accounts: Record<string, { account: TestAccount; offerId: string }> = {};
    for (const finalAction of ['cancel', 'pause', 'keep']) {
      const account = await createTestAccount(runtime, 'tier3');
      const on = await account.test.put('/subscription-retention/recovery/settings', { enabled: true, finalAction, emailBuyer: true });
      expect(on.status, on.text).toBe(200);
      accounts[finalAction] = { account, offerId: (await createOffer(account, { name: `Club ${finalAction}`, price: 12.5, frequency: 'monthly' }))._id };
    }
    const setup: Record<string, { account: TestAccount; subscriberId: string; email: string }> = {};
    for (const [name, via] of [
      ['recovers', 'cancel'],
      ['cancel', 'cancel'],
      ['pause', 'pause'],
      ['keep', 'keep'],
    ] as const) {
      const { account, offerId } = accounts[via]!;
      const email = `${name}-${account.accountId.slice(-6)}@example.com`;
      const { subscriberId } = await subscribe(account, offerId, email);
      await declines(subscriberId);
      setup[name] = { account, subscriberId, email };
    }
    const starts: Record<string, number> = {};
    for (const [name, { account, subscriberId }] of Object.entries(setup))
      starts[name] = Date.parse((await subscriber(account, subscriberId)).currentPeriodEnd);

    // The renewal fails (a quarter day past the period end): recovery starts.
    const now = Date.parse((await control(runtime).post('/_local/clock/advance', { seconds: 0 })).body.now);
    const toFirst = await control(runtime).post('/_local/clock/advance', { seconds: Math.ceil((Math.max(...Object.values(starts)) - now) / 1000) + 6 * 3600 });
    expect(toFirst.status, toFirst.text).toBe(200);
    for (const name of ['recovers', 'cancel', 'pause', 'keep']) {
      const { account, subscriberId } = setup[name]!;
      const failed = about(await events(runtime, account, 'subscription.payment_failed'), subscriberId);
      expect(failed, name).toHaveLength(1);
      expect(failed[0]!.data.recovery).toMatchObject({ attempt: 1, amount: 12.5, currency: 'USD' });
      expect(Math.abs(Date.parse(failed[0]!.data.recovery.nextRetryAt) - (starts[name]! + DAY_MS))).toBeLessThan(60_000);
      expect((await subscriber(account, subscriberId)).status).toBe('past_due');
    }
    const mails = (await control(runtime).get(`/_local/emails?to=${encodeURIComponent(setup.recovers!.email)}`)).body.emails as {
      subject: string;
      html: string;
      text: string;
    }[];
    const recoveryMail = mails.find((m) => m.subject.startsWith('Please update your card'));
    expect(recoveryMail, JSON.stringify(mails.map((m) => m.subject))).toBeDefined();
    expect(recoveryMail!.text).toContain(`/subscriptions/sub/portal-data/`);
    expect(recoveryMail!.text).toContain(setup.recovers!.subscriberId);

    const atRisk = await setup.recovers!.account.test.get('/subscription-retention/recovery/at-risk?status=open');
    expect(atRisk.body.data).toHaveLength(2);
    expect(atRisk.body.data.find((c: { subscriptionCustomerId: string }) => c.subscriptionCustomerId === setup.recovers!.subscriberId)).toMatchObject({
      subscriptionCustomerId: setup.recovers!.subscriberId,
      status: 'open',
      amount: 12.5,
      attempts: 1,
    });

    // Day 1: the first retry fails too; then the card is fixed and the day-3 retry pays.
    await advanceDays(runtime, 1);
    await declines(setup.recovers!.subscriberId, 'pays');
    await advanceDays(runtime, 2);
    const rec = setup.recovers!;
    expect(about(await events(runtime, rec.account, 'subscription.payment_failed'), rec.subscriberId)).toHaveLength(2);
    const recovered = about(await events(runtime, rec.account, 'subscription.recovered'), rec.subscriberId);
    expect(recovered).toHaveLength(1);
    expect(recovered[0]!.data.recovery).toMatchObject({ attempts: 2, amount: 12.5, currency: 'USD' });
    expect((await subscriber(rec.account, rec.subscriberId)).status).toBe('active');

    // Days 6 and 7: the last retry fails, then the final action.
    await advanceDays(runtime, 3);
    for (const name of ['cancel', 'pause', 'keep']) {
      const { account, subscriberId } = setup[name]!;
      const failed = about(await events(runtime, account, 'subscription.payment_failed'), subscriberId);
      expect(
        failed.map((e) => e.data.recovery.attempt),
        name,
      ).toEqual([1, 2, 3, 4]);
      // Retries count from the first failure (days 1, 3, 6), not from the previous attempt.
      const retryDays = failed.map(
        (e) => e.data.recovery.nextRetryAt && Math.round((Date.parse(e.data.recovery.nextRetryAt) - starts[name]!) / 3_600_000) / 24,
      );
      expect(retryDays).toEqual([1, 3, 6, null]);
      expect((await subscriber(account, subscriberId)).status, name).toBe('past_due');
    }
    await advanceDays(runtime, 1);
    expect((await subscriber(setup.cancel!.account, setup.cancel!.subscriberId)).status).toBe('canceled');
    expect(about(await events(runtime, setup.cancel!.account, 'customer.subscription.deleted'), setup.cancel!.subscriberId)).toHaveLength(1);
    const paused = await subscriber(setup.pause!.account, setup.pause!.subscriberId);
    expect(paused).toMatchObject({ status: 'paused', paused: true, active: true });
    expect(about(await events(runtime, setup.pause!.account, 'customer.subscription.pause'), setup.pause!.subscriberId)).toHaveLength(1);
    expect((await subscriber(setup.keep!.account, setup.keep!.subscriberId)).status).toBe('past_due');

    const closed = await setup.keep!.account.test.get('/subscription-retention/recovery/at-risk?status=closed');
    expect(closed.body.data[0]).toMatchObject({ status: 'closed', outcome: 'kept', attempts: 4 });
    const summary = await rec.account.test.get('/subscription-retention/recovery/summary?days=30');
    expect(summary.body).toMatchObject({
      days: 30,
      recovered: [{ currency: 'USD', amount: 12.5, count: 1 }],
      recoveredCount: 1,
      atRisk: [],
      atRiskCount: 0,
      lostCount: 1,
      recoveryRate: 50,
      entitlement: { allowed: true, requiredPlan: 'tier3' },
    });
  }, 240_000);
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function portalPage(url: string) {
  const res = await fetch(url, { headers: { accept: 'text/html' } });
  return { status: res.status, html: await res.text() };
}

async function postForm(action: string, fields: Record<string, string>) {
  const res = await fetch(`${runtime.url}${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: form(fields),
  });
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

describe('save offers at cancel', () => {
  it('offers a pause or a discount first; the discount lowers the next two renewals and the pause skips one', async () => {
    const account = await createTestAccount(runtime, 'tier3');
    const offerId = (await createOffer(account, { name: 'Studio', price: 20, frequency: 'monthly' }))._id;
    const growth = await createTestAccount(runtime, 'tier2');
    const growthOffer = (await createOffer(growth, { name: 'Growth club', price: 20, frequency: 'monthly' }))._id;
    const locked = await growth.test.put(`/subscription-retention/offers/${growthOffer}`, { saveOffers: { enabled: true } });
    expect(locked.status).toBe(403);
    expect(locked.body).toMatchObject({ code: 'FEATURE_LOCKED', details: { requiredPlan: 'tier3' } });
    expect((await growth.test.put(`/subscription-retention/offers/${growthOffer}`, { saveOffers: { enabled: false, discountPercent: 40 } })).status).toBe(200);
    const bad = await account.test.put(`/subscription-retention/offers/${offerId}`, { saveOffers: { enabled: true, discountPercent: 95 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'INVALID_RETENTION_CONFIG', field: 'saveOffers.discountPercent' });
    expect(bad.body.message).toContain('saveOffers.discountPercent');
    const on = await account.test.put(`/subscription-retention/offers/${offerId}`, {
      saveOffers: { enabled: true, pauseMaxMonths: 2, discountPercent: 25, discountMonths: 2 },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.saveOffers).toEqual({ enabled: true, pauseMaxMonths: 2, discountPercent: 25, discountMonths: 2 });

    // Intro pricing and the yearly switch ride the same months.
    const introOffer = (await createOffer(account, { name: 'Intro club', price: 20, frequency: 'monthly' }))._id;
    const badIntro = await account.test.put(`/subscription-retention/offers/${introOffer}`, { intro: { enabled: true, price: 25 } });
    expect(badIntro.body).toMatchObject({ code: 'INVALID_RETENTION_CONFIG', field: 'intro.price' });
    expect((await account.test.put(`/subscription-retention/offers/${introOffer}`, { intro: { enabled: true, price: 5, periods: 2 } })).status).toBe(200);
    const yearlyOffer = (await createOffer(account, { name: 'Yearly club', price: 10, frequency: 'monthly' }))._id;
    expect(
      (await account.test.put(`/subscription-retention/offers/${yearlyOffer}`, { yearlySwitch: { enabled: true, afterPayments: 1, percentOff: 20 } })).status,
    ).toBe(200);
    const intro = await subscribe(account, introOffer, 'intro@example.com');
    const yearly = await subscribe(account, yearlyOffer, 'yearly@example.com');
    await events(runtime, account);
    const yearlyMail = ((await control(runtime).get('/_local/emails?to=yearly%40example.com')).body.emails as { subject: string }[]).filter((m) =>
      m.subject.includes('yearly billing'),
    );
    expect(yearlyMail).toHaveLength(1);
    const yearlySub = await subscriber(account, yearly.subscriberId);
    const yearlyPortal = await (await fetch(yearlySub.portalUrl)).json();
    expect(yearlyPortal.yearlySwitch).toEqual({ percentOff: 20, yearlyPrice: 96, currency: 'USD', accepted: false });
    expect((await portalPage(yearlySub.portalUrl)).html).toContain('id="yearly-switch"');
    const switched = await control(runtime).post(
      `/subscriptions/sub/portal/${yearly.subscriberId}/yearly-switch?token=${new URL(yearlySub.portalUrl).searchParams.get('token')}`,
      {},
    );
    expect(switched.status, switched.text).toBe(200);

    const discounted = await subscribe(account, offerId, 'stay-discount@example.com');
    const paused = await subscribe(account, offerId, 'stay-pause@example.com');
    const sub = await subscriber(account, discounted.subscriberId);
    const action = `/subscriptions/sub/portal-form/${offerId}/${discounted.subscriberId}`;
    const token = new URL(sub.portalUrl).searchParams.get('token')!;
    const page = await portalPage(sub.portalUrl);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.html)![1]!;

    // Cancel shows the offers first and changes nothing.
    const offers = await postForm(action, { action: 'cancel', token, csrf });
    expect(offers.status).toBe(200);
    expect(offers.html).toContain('id="save-discount"');
    expect(offers.html).toContain('$15.00');
    expect(offers.html).toMatch(/<select id="months" name="months"><option value="1">1<\/option><option value="2">2<\/option><\/select>/);
    expect((await subscriber(account, discounted.subscriberId)).cancelAtPeriodEnd).toBe(false);
    // A forged form (bad CSRF token) is refused and applies nothing.
    const forged = await postForm(action, { action: 'save_discount', token, csrf: 'forged' });
    expect(forged.status).toBe(403);
    const accepted = await postForm(action, { action: 'save_discount', token, csrf, reason: 'too_expensive' });
    expect(accepted.status).toBe(303);
    expect(accepted.location).toContain('done=saved');

    // The JSON portal route takes the pause.
    const pausedSub = await subscriber(account, paused.subscriberId);
    const pausedToken = new URL(pausedSub.portalUrl).searchParams.get('token')!;
    const tooLong = await control(runtime).post(`/subscriptions/sub/portal/${paused.subscriberId}/cancel?token=${pausedToken}`, {
      saveOffer: { kind: 'pause', months: 3 },
    });
    expect(tooLong.status).toBe(400);
    const pause = await control(runtime).post(`/subscriptions/sub/portal/${paused.subscriberId}/cancel?token=${pausedToken}`, {
      saveOffer: { kind: 'pause', months: 1 },
      reason: 'not_using',
    });
    expect(pause.status, pause.text).toBe(200);
    expect(Date.parse(pause.body.currentPeriodEnd) - Date.parse(pausedSub.currentPeriodEnd)).toBeGreaterThan(27 * DAY_MS);

    const saved = await events(runtime, account, 'subscription.saved');
    expect(saved.map((e) => [e.data.subscriptionCustomerId, e.data.offer.type])).toEqual([
      [discounted.subscriberId, 'discount'],
      [paused.subscriberId, 'pause'],
    ]);
    expect(saved[0]!.data.offer).toMatchObject({ percentOff: 25, payments: 2, price: 15 });

    // Two renewals at the discount; the paused subscriber is not charged in the skipped month.
    await advanceDays(runtime, 45);
    const renewals = async (id: string) =>
      ((await subscriber(account, id)).payments as { billingReason: string; amountCents: number }[])
        .filter((p) => p.billingReason === 'renewal')
        .map((p) => p.amountCents);
    expect(await renewals(discounted.subscriberId)).toEqual([1500]);
    expect(await renewals(paused.subscriberId)).toEqual([]);
    expect(await renewals(intro.subscriberId)).toEqual([500]);
    expect(await renewals(yearly.subscriberId)).toEqual([9600]);
    const afterSwitch = await subscriber(account, yearly.subscriberId);
    expect(Date.parse(afterSwitch.currentPeriodEnd) - Date.parse(afterSwitch.currentPeriodStart)).toBeGreaterThan(364 * DAY_MS);
    await advanceDays(runtime, 16);
    expect(await renewals(discounted.subscriberId)).toEqual([1500, 1500]);
    expect(await renewals(intro.subscriberId)).toEqual([2000, 500]); // newest first
    const introReport = await account.test.get('/subscription-retention/intro/report');
    // The intro's 2 charges count from the first: the checkout's and one renewal at $5, then $20.
    expect(((await subscriber(account, intro.subscriberId)).payments as { amountCents: number }[]).map((p) => p.amountCents)).toEqual([2000, 500, 500]);
    expect(introReport.body).toMatchObject({ intro: { subscribersStarted: 1, paymentsAtIntroPrice: 2 }, yearlySwitch: { prompted: 1, accepted: 1 } });

    const report = await account.test.get('/subscription-retention/save-offers/report?days=90');
    expect(report.status, report.text).toBe(200);
    expect(report.body).toMatchObject({ savedCount: 2, saved: { pause: 1, discount: 1 } });
    expect(report.body.reasons).toEqual(
      expect.arrayContaining([
        { reason: 'too_expensive', count: 1 },
        { reason: 'not_using', count: 1 },
      ]),
    );
  }, 240_000);
});
