import { describe, expect, it } from 'vitest';
import { introCoupon } from '../../shared/adapters/processor-stripe/stripe';
import { discountTerms, introCharges } from '../../shared/processor/intro';

/** The intro price rule both processors follow: the first N charges from the first one. */
describe('introCharges', () => {
  it('charges the intro price at checkout and for the rest of its payments', () => {
    expect(introCharges(2000, { amountCents: 500, payments: 3 }, true)).toEqual({ firstChargeCents: 500, next: { amountCents: 500, remaining: 2 } });
    expect(introCharges(2000, { amountCents: 500, payments: 1 }, true)).toEqual({ firstChargeCents: 500, next: null });
  });
  it('after a trial the first renewal is the first charge, so every intro payment is still to come', () => {
    expect(introCharges(2000, { amountCents: 500, payments: 2 }, false)).toEqual({ firstChargeCents: 2000, next: { amountCents: 500, remaining: 2 } });
  });
  it('is no intro when it is not below the price or covers no payment', () => {
    const none = { firstChargeCents: 2000, next: null };
    expect(introCharges(2000, null, true)).toEqual(none);
    expect(introCharges(2000, { amountCents: 2000, payments: 2 }, true)).toEqual(none);
    expect(introCharges(2000, { amountCents: 2500, payments: 2 }, true)).toEqual(none);
    expect(introCharges(2000, { amountCents: 500, payments: 0 }, true)).toEqual(none);
    expect(introCharges(2000, { amountCents: 500, payments: 1.5 }, true)).toEqual(none);
  });
});

describe('discountTerms (Stripe counts coupons in months)', () => {
  it('covers N monthly or yearly payments with a repeating coupon; weekly ones are counted by the adapter', () => {
    expect(discountTerms(3, 'month')).toEqual({ duration: 'repeating', months: 3 });
    expect(discountTerms(2, 'month', 3)).toEqual({ duration: 'repeating', months: 6 });
    expect(discountTerms(2, 'year')).toEqual({ duration: 'repeating', months: 24 });
    expect(discountTerms(4, 'week')).toEqual({ duration: 'forever', counted: 4 });
  });
});

describe('introCoupon (Stripe checkout)', () => {
  it('is the difference to the regular price for the intro payments, from the first invoice', () => {
    expect(introCoupon({ intro: { amountCents: 500, payments: 3 }, interval: 'monthly', amountCents: 2000 }, 2000)).toEqual({
      amountOff: 1500,
      terms: { duration: 'repeating', months: 3 },
    });
    expect(introCoupon({ intro: { amountCents: 500, payments: 2 }, interval: 'weekly', amountCents: 2000 }, 2000)).toEqual({
      amountOff: 1500,
      terms: { duration: 'forever', counted: 2 },
    });
  });
  it('is none without an intro, with a trial, or when the intro is not lower', () => {
    expect(introCoupon({ intro: null, interval: 'monthly', amountCents: 2000 }, 2000)).toBeNull();
    expect(introCoupon({ intro: { amountCents: 500, payments: 2 }, interval: 'monthly', trialDays: 7, amountCents: 2000 }, 2000)).toBeNull();
    expect(introCoupon({ intro: { amountCents: 2000, payments: 2 }, interval: 'monthly', amountCents: 2000 }, 2000)).toBeNull();
  });
});
