import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/platform/errors';
import type { RecoveryCase } from '../../shared/retention/records';
import {
  applyOfferConfig,
  DEFAULT_OFFER_RETENTION,
  discountedCents,
  perCurrency,
  recoverySchedule,
  recoverySummary,
  saveOfferTaken,
  saveReport,
  turnsOn,
  upcomingChargeCents,
  yearlyCents,
} from '../../shared/retention/rules';

const monthly = { priceCents: 2000, frequency: 'monthly' as const };
const base = DEFAULT_OFFER_RETENTION('offer1');

function fieldOf(body: unknown, offer: { priceCents: number; frequency: 'monthly' | 'yearly' | 'weekly'; trialPeriod?: number } = monthly): string | undefined {
  try {
    applyOfferConfig(base, body, offer);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('INVALID_RETENTION_CONFIG');
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).field;
  }
}

describe('recovery schedule', () => {
  it('retries 1, 3 and 6 days after the first failure and ends on day 7', () => {
    const first = new Date('2026-01-10T12:00:00Z');
    const { retries, finalActionAt } = recoverySchedule(first);
    expect(retries.map((d) => d.toISOString())).toEqual(['2026-01-11T12:00:00.000Z', '2026-01-13T12:00:00.000Z', '2026-01-16T12:00:00.000Z']);
    expect(finalActionAt.toISOString()).toBe('2026-01-17T12:00:00.000Z');
  });
});

describe('offer retention config', () => {
  it('names the field of each range violation', () => {
    expect(fieldOf({ saveOffers: { pauseMaxMonths: 0 } })).toBe('saveOffers.pauseMaxMonths');
    expect(fieldOf({ saveOffers: { pauseMaxMonths: 4 } })).toBe('saveOffers.pauseMaxMonths');
    expect(fieldOf({ saveOffers: { discountPercent: 4 } })).toBe('saveOffers.discountPercent');
    expect(fieldOf({ saveOffers: { discountPercent: 91 } })).toBe('saveOffers.discountPercent');
    expect(fieldOf({ saveOffers: { discountPercent: 12.5 } })).toBe('saveOffers.discountPercent');
    expect(fieldOf({ saveOffers: { discountMonths: 13 } })).toBe('saveOffers.discountMonths');
    expect(fieldOf({ intro: { periods: 0 } })).toBe('intro.periods');
    expect(fieldOf({ intro: { periods: 13 } })).toBe('intro.periods');
    expect(fieldOf({ yearlySwitch: { afterPayments: 25 } })).toBe('yearlySwitch.afterPayments');
    expect(fieldOf({ yearlySwitch: { percentOff: 51 } })).toBe('yearlySwitch.percentOff');
    expect(fieldOf({ yearlySwitch: { percentOff: 0 } })).toBe('yearlySwitch.percentOff');
    expect(fieldOf({ saveOffers: { enabled: 'yes' } })).toBe('saveOffers.enabled');
    expect(fieldOf({ other: {} })).toBe('other');
  });

  it('keeps the intro price at least 1.00, below the regular price and away from trials', () => {
    expect(fieldOf({ intro: { enabled: true } })).toBe('intro.price');
    expect(fieldOf({ intro: { enabled: true, price: 0.99 } })).toBe('intro.price');
    expect(fieldOf({ intro: { enabled: true, price: 20 } })).toBe('intro.price');
    expect(fieldOf({ intro: { enabled: true, price: 9.999 } })).toBe('intro.price');
    expect(fieldOf({ intro: { enabled: true, price: 5 } }, { ...monthly, trialPeriod: 7 })).toBe('intro.price');
    expect(fieldOf({ intro: { enabled: true, price: 1 } })).toBeUndefined();
    expect(fieldOf({ intro: { enabled: true, price: 19.99, periods: 12 } })).toBeUndefined();
  });

  it('allows the yearly switch on monthly offers only', () => {
    expect(fieldOf({ yearlySwitch: { enabled: true } }, { priceCents: 2000, frequency: 'yearly' })).toBe('yearlySwitch.enabled');
    expect(fieldOf({ yearlySwitch: { enabled: true } }, { priceCents: 2000, frequency: 'weekly' })).toBe('yearlySwitch.enabled');
    expect(fieldOf({ yearlySwitch: { enabled: true, afterPayments: 24, percentOff: 50 } })).toBeUndefined();
  });

  it('merges only the named fields and knows when a feature is turned on', () => {
    const next = applyOfferConfig(base, { saveOffers: { enabled: true, discountPercent: 30 } }, monthly);
    expect(next.saveOffers).toEqual({ enabled: true, pauseMaxMonths: 3, discountPercent: 30, discountMonths: 3 });
    expect(next.intro).toEqual(base.intro);
    expect(turnsOn({ saveOffers: { enabled: true } })).toBe(true);
    expect(turnsOn({ saveOffers: { enabled: false }, intro: { price: 3 } })).toBe(false);
    expect(turnsOn({ enabled: true })).toBe(true);
    expect(turnsOn({ enabled: false, finalAction: 'keep' })).toBe(false);
  });

  it('prices discounts and the yearly switch in whole cents', () => {
    expect(discountedCents(1999, 25)).toBe(1499);
    expect(yearlyCents(1000, 15)).toBe(10200);
  });
});

const kase = (status: RecoveryCase['status'], currency: string, amountCents: number): RecoveryCase => ({
  _id: 'x',
  subscriberId: 's',
  offerId: 'o',
  offerName: 'n',
  buyerEmail: 'b@example.com',
  currency,
  amountCents,
  status,
  attempts: 1,
  startedAt: '',
  lastFailedAt: '',
  nextRetryAt: null,
  finalActionAt: '',
  finalAction: 'cancel',
  recoveredAt: null,
  closedAt: null,
  outcome: null,
});

describe('recovery summary', () => {
  it('keeps money per currency in major units and computes the rate over settled cases', () => {
    const cases = [
      kase('recovered', 'USD', 1250),
      kase('recovered', 'USD', 999),
      kase('recovered', 'EUR', 500),
      kase('open', 'USD', 1000),
      kase('closed', 'USD', 700),
    ];
    const s = recoverySummary(cases, 30, 'tier2');
    expect(s).toEqual({
      days: 30,
      recovered: [
        { currency: 'EUR', amount: 5, count: 1 },
        { currency: 'USD', amount: 22.49, count: 2 },
      ],
      recoveredCount: 3,
      atRisk: [{ currency: 'USD', amount: 10, count: 1 }],
      atRiskCount: 1,
      lostCount: 1,
      recoveryRate: 75,
      entitlement: { allowed: false, requiredPlan: 'tier3' },
    });
    expect(recoverySummary([], 7, 'tier3')).toMatchObject({ recoveryRate: 0, entitlement: { allowed: true } });
    expect(perCurrency([kase('open', 'usd', 1), kase('open', 'USD', 2)])).toEqual([{ currency: 'USD', amount: 0.03, count: 2 }]);
  });

  it('reports saved flows, reasons and the save rate', () => {
    const flow = (id: string, kind: 'pause' | 'discount' | 'declined', reason: string | null) => ({
      _id: id,
      subscriberId: 's',
      offerId: 'o',
      kind,
      months: null,
      percent: null,
      reason,
      createdAt: '',
    });
    const r = saveReport(
      [flow('1', 'pause', 'too_expensive'), flow('2', 'discount', 'too_expensive'), flow('3', 'declined', null), flow('4', 'declined', 'not_using')],
      30,
    );
    expect(r).toMatchObject({ flowsCount: 4, savedCount: 2, saved: { pause: 1, discount: 1 }, canceledCount: 2, saveRate: 50 });
    expect(r.reasons[0]).toEqual({ reason: 'too_expensive', count: 2 });
    expect(r.recentFlows.map((f) => f.id)).toEqual(['4', '3', '2', '1']);
  });
});

describe('one save offer per subscriber, and the charge it leaves next', () => {
  const at = '2026-01-01T00:00:00.000Z';
  it('counts a pause, a discount, and a discount recorded before `saved` existed as taken', () => {
    expect(saveOfferTaken(undefined)).toBe(false);
    expect(saveOfferTaken({ saved: null, discount: null })).toBe(false);
    expect(saveOfferTaken({ saved: { kind: 'pause', at }, discount: null })).toBe(true);
    expect(saveOfferTaken({ discount: { percent: 20, payments: 2, at } })).toBe(true);
  });
  it('charges the discount while its payments remain, then the regular price; an intro price while its renewals remain', () => {
    const discount = { percent: 20, payments: 2, at, fromPayments: 1 };
    expect(upcomingChargeCents({ discount, intro: null, payments: 1 }, 2000)).toBe(1600);
    expect(upcomingChargeCents({ discount, intro: null, payments: 2 }, 2000)).toBe(1600);
    expect(upcomingChargeCents({ discount, intro: null, payments: 3 }, 2000)).toBe(2000);
    const intro = { amountCents: 500, periods: 2, at };
    expect(upcomingChargeCents({ discount: null, intro, payments: 1 }, 2000)).toBe(500);
    expect(upcomingChargeCents({ discount: null, intro, payments: 2 }, 2000)).toBe(500);
    expect(upcomingChargeCents({ discount: null, intro, payments: 3 }, 2000)).toBeNull();
    // The discount replaced the intro override at the processor.
    expect(upcomingChargeCents({ discount: { ...discount, fromPayments: 2 }, intro, payments: 2 }, 2000)).toBe(1600);
    expect(upcomingChargeCents({ discount: { percent: 20, payments: 2, at }, intro: null, payments: 2 }, 2000)).toBeNull();
    expect(upcomingChargeCents(undefined, 2000)).toBeNull();
  });
});
