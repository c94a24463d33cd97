import { toCents, toMajor } from '../platform/money';

/** Highest price one product or offer may carry, in major units (USD). */
export const MAX_PRICE = 1_000_000;

/**
 * A price in major units is valid when it is a finite number from 0 to MAX_PRICE with at most two
 * decimal places. Floating point makes 19.99 * 100 land a hair off an integer, so the check
 * tolerates that hair and nothing more: 9.999 is refused rather than silently rounded.
 */
export function priceProblem(price: number): string | undefined {
  if (!Number.isFinite(price)) return 'must be a number';
  if (price < 0) return 'must be 0 or more';
  if (price > MAX_PRICE) return `must be at most ${MAX_PRICE}`;
  if (Math.abs(price * 100 - Math.round(price * 100)) > 1e-6) return 'must have at most 2 decimal places';
  return undefined;
}

/** USD major units (API) to integer cents (storage). */
export const priceToCents = (price: number): number => toCents(price);
/** Integer cents (storage) to major units (API). */
export const centsToPrice = (cents: number): number => toMajor(cents);
