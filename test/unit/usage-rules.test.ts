import { describe, expect, it } from 'vitest';
import {
  checkoutAmountCents,
  checkoutSeats,
  extraSeatPeriods,
  isUsagePriced,
  meterCharges,
  nextRetryAt,
  parsePricing,
  pricingOf,
} from '../../shared/usage/rules';
import type { ApiError } from '../../shared/platform/errors';

const seats = { enabled: true, unitPriceCents: 500, minimum: 2, maximum: 10 };
const meter = { key: 'api_calls', name: 'API calls', unitPriceCents: 2, includedUnits: 100 };

function fieldOf(body: unknown): string | undefined {
  try {
    parsePricing(body);
    return undefined;
  } catch (error) {
    return (error as ApiError).field;
  }
}

describe('usage pricing ranges', () => {
  it('accepts a valid pricing and flat pricing', () => {
    expect(parsePricing({ seats, meters: [meter] })).toEqual({ seats, meters: [meter] });
    const flat = parsePricing({ seats: { enabled: false }, meters: [] });
    expect(isUsagePriced(flat)).toBe(false);
    expect(isUsagePriced(parsePricing({ seats: { enabled: false }, meters: [meter] }))).toBe(true);
  });

  it('names the field at fault', () => {
    expect(fieldOf({ seats: { ...seats, minimum: 0 }, meters: [] })).toBe('seats.minimum');
    expect(fieldOf({ seats: { ...seats, maximum: 1 }, meters: [] })).toBe('seats.maximum');
    expect(fieldOf({ seats: { ...seats, unitPriceCents: -1 }, meters: [] })).toBe('seats.unitPriceCents');
    expect(fieldOf({ seats: { enabled: 'yes' }, meters: [] })).toBe('seats.enabled');
    expect(fieldOf({ seats, meters: [{ ...meter, includedUnits: 1.5 }] })).toBe('meters[0].includedUnits');
    expect(fieldOf({ seats, meters: [meter, { ...meter, key: 'Bad Key' }] })).toBe('meters[1].key');
    expect(fieldOf({ seats, meters: [meter, meter] })).toBe('meters[1].key');
    expect(fieldOf({ seats, meters: [{ ...meter, name: '' }] })).toBe('meters[0].name');
    expect(fieldOf({ seats, meters: Array.from({ length: 6 }, (_, i) => ({ ...meter, key: `m${i}` })) })).toBe('meters');
    expect(fieldOf({ seats })).toBe('meters');
    expect(fieldOf({ meters: [] })).toBe('seats');
  });

  it('reads stored pricing leniently: anything malformed is flat', () => {
    expect(isUsagePriced(pricingOf(undefined))).toBe(false);
    expect(isUsagePriced(pricingOf({ seats: { enabled: true } }))).toBe(false);
  });
});

describe('overage and seats', () => {
  it('charges units above includedUnits only', () => {
    expect(meterCharges([meter], { api_calls: 175 })[0]).toMatchObject({ quantity: 175, overageUnits: 75, amountCents: 150 });
    expect(meterCharges([meter], { api_calls: 100 })[0]!.amountCents).toBe(0);
    expect(meterCharges([meter], {})[0]).toMatchObject({ quantity: 0, amountCents: 0 });
  });

  it('counts extra seats in seat-periods: two extra seats for 80 % of the period = 1.6', () => {
    const start = '2026-01-01T00:00:00.000Z';
    const end = '2026-01-11T00:00:00.000Z';
    expect(
      extraSeatPeriods(
        [
          { at: start, quantity: 3 },
          { at: '2026-01-03T00:00:00.000Z', quantity: 5 },
        ],
        3,
        start,
        end,
      ),
    ).toBe(1.6);
    // Up then down: only the time above the seats bought counts.
    expect(
      extraSeatPeriods(
        [
          { at: start, quantity: 4 },
          { at: '2026-01-06T00:00:00.000Z', quantity: 3 },
        ],
        3,
        start,
        end,
      ),
    ).toBe(0.5);
    expect(extraSeatPeriods([{ at: start, quantity: 3 }], 3, start, end)).toBe(0);
    // A change recorded before the period started counts from the start.
    expect(extraSeatPeriods([{ at: '2025-12-20T00:00:00.000Z', quantity: 4 }], 3, start, end)).toBe(1);
  });

  it('sells seats at checkout within the range, the minimum by default, priced per seat', () => {
    expect(checkoutSeats(seats, undefined)).toBe(2);
    expect(checkoutSeats(seats, 10)).toBe(10);
    expect(() => checkoutSeats(seats, 11)).toThrow(/quantity/);
    expect(() => checkoutSeats(seats, 1)).toThrow(/quantity/);
    expect(() => checkoutSeats({ ...seats, enabled: false }, 3)).toThrow(/per seat/);
    expect(checkoutSeats({ ...seats, enabled: false }, undefined)).toBeUndefined();
    expect(checkoutAmountCents(1000, seats, 3)).toBe(2500);
  });
});

describe('charge retries', () => {
  it('retries 1, 3, 5 and 7 days after the first failure, then none', () => {
    const first = '2026-02-01T00:00:00.000Z';
    expect([0, 1, 2, 3].map((r) => nextRetryAt(first, r))).toEqual(['2026-02-02', '2026-02-04', '2026-02-06', '2026-02-08'].map((d) => `${d}T00:00:00.000Z`));
    expect(nextRetryAt(first, 4)).toBeNull();
  });
});
