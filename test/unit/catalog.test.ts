import { describe, expect, it } from 'vitest';
import { baseName, copyName, MAX_NAME_LENGTH } from '../../shared/catalog/copy-name';
import { centsToPrice, MAX_PRICE, priceProblem, priceToCents } from '../../shared/catalog/pricing';
import type { ProductRecord } from '../../shared/catalog/records';
import {
  buildOffer,
  buildProduct,
  mergeOffer,
  mergeProduct,
  productProblem,
  sameView,
  toOfferView,
  toProductView,
  usesUsagePricing,
} from '../../shared/catalog/rules';
import { offerCreateBody, productCreateBody } from '../../shared/catalog/schemas';

const meta = { id: 'a'.repeat(24), currency: 'USD', testMode: true, now: '2026-01-01T00:00:00.000Z' };
const later = '2026-01-02T00:00:00.000Z';

describe('copy names', () => {
  it('adds "(copy)", then numbers from 2, skipping names already taken', () => {
    expect(copyName('Ebook', [])).toBe('Ebook (copy)');
    expect(copyName('Ebook', ['Ebook', 'Ebook (copy)'])).toBe('Ebook (copy 2)');
    expect(copyName('Ebook', ['Ebook (copy)', 'Ebook (copy 2)', 'Ebook (copy 4)'])).toBe('Ebook (copy 3)');
  });

  it('compares without case and outer spaces', () => {
    expect(copyName('Ebook', [' ebook (COPY) '])).toBe('Ebook (copy 2)');
  });

  it('numbers a copy of a copy from the original name', () => {
    expect(baseName('Ebook (copy 7)')).toBe('Ebook');
    expect(baseName('Ebook (Copy)')).toBe('Ebook');
    expect(copyName('Ebook (copy)', ['Ebook', 'Ebook (copy)'])).toBe('Ebook (copy 2)');
    // A name that is nothing but the suffix keeps itself as the base.
    expect(baseName('(copy)')).toBe('(copy)');
    // Brackets that are not a copy suffix are part of the name.
    expect(copyName('Guide (2nd edition)', [])).toBe('Guide (2nd edition) (copy)');
  });

  it('never makes a name longer than the limit', () => {
    const long = 'x'.repeat(MAX_NAME_LENGTH);
    const first = copyName(long, []);
    expect(first.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(first.endsWith(' (copy)')).toBe(true);
    const second = copyName(long, [first]);
    expect(second.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
    expect(second.endsWith(' (copy 2)')).toBe(true);
  });
});

describe('prices', () => {
  it('converts USD major units to integer cents and back without float drift', () => {
    expect(priceToCents(29.99)).toBe(2999);
    expect(priceToCents(0.1 + 0.2)).toBe(30);
    expect(priceToCents(19.99)).toBe(1999);
    expect(priceToCents(1_000_000)).toBe(100_000_000);
    expect(centsToPrice(2999)).toBe(29.99);
    expect(centsToPrice(5)).toBe(0.05);
    for (let cents = 0; cents < 10_000; cents += 7) expect(priceToCents(centsToPrice(cents))).toBe(cents);
  });

  it('accepts 0 to the maximum with at most two decimals, and says why otherwise', () => {
    for (const ok of [0, 0.01, 19.99, 29.9, 100, MAX_PRICE, 0.1 + 0.2]) expect(priceProblem(ok)).toBeUndefined();
    expect(priceProblem(-0.01)).toMatch(/0 or more/);
    expect(priceProblem(MAX_PRICE + 1)).toMatch(/at most/);
    expect(priceProblem(9.999)).toMatch(/2 decimal/);
    expect(priceProblem(Number.NaN)).toMatch(/number/);
    expect(priceProblem(Number.POSITIVE_INFINITY)).toMatch(/number/);
  });
});

describe('product rules', () => {
  const product = (input: Record<string, unknown>) => buildProduct(productCreateBody.parse(input), meta);

  it('builds a record in cents with defaults, and shows it in major units', () => {
    const record = product({ name: ' Ebook ', price: 12.5 });
    expect(record).toMatchObject({ name: 'Ebook', priceCents: 1250, productType: 'digital', published: true, refundPolicyId: null, imageIds: [] });
    expect(toProductView(record)).toMatchObject({ price: 12.5, description: null, payWhatYouWant: { enabled: false, minimumPrice: 0 } });
    expect(toProductView(record)).not.toHaveProperty('creditAutoRefill');
  });

  it('keeps credit fields on credits products only', () => {
    expect(
      productProblem(product({ name: 'P', price: 1, productType: 'credits', creditAmount: 5, creditAutoRefill: { enabled: true, topOffCents: 500 } })),
    ).toBeUndefined();
    expect(productProblem(product({ name: 'P', price: 1, creditAmount: 5 }))?.field).toBe('creditAmount');
    expect(productProblem(product({ name: 'P', price: 1, creditAutoRefill: { enabled: false, topOffCents: 0 } }))?.field).toBe('creditAutoRefill');
    expect(productProblem(product({ name: 'P', price: 1, productType: 'credits', creditAutoRefill: { enabled: true, topOffCents: 0 } }))?.field).toBe(
      'creditAutoRefill.topOffCents',
    );
  });

  it('keeps a pay-what-you-want minimum at or below the price', () => {
    expect(productProblem(product({ name: 'P', price: 5, payWhatYouWant: { enabled: true, minimumPrice: 5 } }))).toBeUndefined();
    expect(productProblem(product({ name: 'P', price: 5, payWhatYouWant: { enabled: true, minimumPrice: 5.01 } }))?.field).toBe('payWhatYouWant.minimumPrice');
    // A disabled minimum is not checked: the seller may be preparing it.
    expect(productProblem(product({ name: 'P', price: 5, payWhatYouWant: { enabled: false, minimumPrice: 9 } }))).toBeUndefined();
    expect(product({ name: 'P', price: 5, payWhatYouWant: true }).payWhatYouWant).toEqual({ enabled: true, minimumCents: 0 });
  });

  it('merges a partial update: absent keeps, null clears, leaving credits drops credit fields', () => {
    const current: ProductRecord = product({
      name: 'P',
      price: 5,
      description: 'd',
      productType: 'credits',
      creditAmount: 3,
      payWhatYouWant: { enabled: true, minimumPrice: 1 },
    });
    const renamed = mergeProduct(current, { name: 'Q' }, later);
    expect(renamed).toMatchObject({ name: 'Q', priceCents: 500, description: 'd', creditAmount: 3, updatedAt: later, createdAt: meta.now });
    expect(mergeProduct(current, { description: null }, later)).not.toHaveProperty('description');
    expect(mergeProduct(current, { payWhatYouWant: false }, later).payWhatYouWant).toEqual({ enabled: false, minimumCents: 100 });
    const digital = mergeProduct(current, { productType: 'digital' }, later);
    expect(digital).not.toHaveProperty('creditAmount');
    expect(productProblem(digital)).toBeUndefined();
    expect(current.creditAmount).toBe(3);
  });

  it('tells a no-op update from a change, ignoring updatedAt', () => {
    const current = product({ name: 'P', price: 5 });
    expect(sameView(toProductView(current), toProductView(mergeProduct(current, { price: 5, name: 'P' }, later)))).toBe(true);
    expect(sameView(toProductView(current), toProductView(mergeProduct(current, { price: 6 }, later)))).toBe(false);
  });
});

describe('offer rules', () => {
  const offer = (input: Record<string, unknown>) => buildOffer(offerCreateBody.parse(input), meta);

  it('builds an offer with trial 0 and flat pricing unless stated', () => {
    const record = offer({ name: 'M', price: 9.5, frequency: 'monthly' });
    expect(record).toMatchObject({ priceCents: 950, frequency: 'monthly', trialPeriod: 0, published: true });
    expect(record).not.toHaveProperty('usagePricing');
    expect(toOfferView(record)).toMatchObject({ price: 9.5, usagePricing: { seats: { enabled: false }, meters: [] } });
  });

  it('validates at most five meters, each an object, and keeps their fields as sent', () => {
    const meters = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `m${i}`, unitCents: i }));
    expect(offerCreateBody.safeParse({ name: 'M', price: 1, frequency: 'weekly', usagePricing: { meters: meters(5) } }).success).toBe(true);
    const six = offerCreateBody.safeParse({ name: 'M', price: 1, frequency: 'weekly', usagePricing: { meters: meters(6) } });
    expect(six.success).toBe(false);
    expect(six.error?.issues[0]?.path).toEqual(['usagePricing', 'meters']);
    expect(offerCreateBody.safeParse({ name: 'M', price: 1, frequency: 'weekly', usagePricing: { meters: [3] } }).success).toBe(false);
    expect(offer({ name: 'M', price: 1, frequency: 'weekly', usagePricing: { meters: meters(2) } }).usagePricing?.meters).toEqual(meters(2));
  });

  it('merges usage pricing by part and clears it with null', () => {
    const current = offer({ name: 'M', price: 1, frequency: 'weekly', usagePricing: { seats: { enabled: true, max: 4 } } });
    const withMeters = mergeOffer(current, { usagePricing: { meters: [{ name: 'calls' }] } }, later);
    expect(withMeters.usagePricing).toEqual({ seats: { enabled: true, max: 4 }, meters: [{ name: 'calls' }] });
    expect(mergeOffer(current, { usagePricing: null }, later)).not.toHaveProperty('usagePricing');
  });

  it('counts seats on or any meter as usage pricing (the Pro gate), and flat pricing as not', () => {
    expect(usesUsagePricing(undefined)).toBe(false);
    expect(usesUsagePricing(null)).toBe(false);
    expect(usesUsagePricing({ seats: { enabled: false }, meters: [] })).toBe(false);
    expect(usesUsagePricing({ seats: { enabled: true } })).toBe(true);
    expect(usesUsagePricing({ meters: [{}] })).toBe(true);
  });
});
