import type { IntroPrice } from './port';

/**
 * The intro price rule both processors follow: a new subscription's first `payments` charges,
 * counted from its very first one (the checkout's, or the first after a trial), cost the intro
 * amount; every later charge the regular amount. An intro that is not below the regular price,
 * or that covers no payment, is no intro.
 */
export interface IntroCharges {
  /** What the charge at checkout costs (the regular amount when there is no intro). */
  firstChargeCents: number;
  /** The renewals that still charge the intro amount after the checkout (none: null). */
  next: { amountCents: number; remaining: number } | null;
}

export function introCharges(regularCents: number, intro: IntroPrice | null | undefined, chargedAtCheckout: boolean): IntroCharges {
  if (!intro || !Number.isInteger(intro.payments) || intro.payments < 1 || intro.amountCents >= regularCents || intro.amountCents < 0)
    return { firstChargeCents: regularCents, next: null };
  // A trial charges nothing at checkout: the first renewal (the trial's end) is the first charge.
  if (!chargedAtCheckout) return { firstChargeCents: regularCents, next: { amountCents: intro.amountCents, remaining: intro.payments } };
  return { firstChargeCents: intro.amountCents, next: intro.payments > 1 ? { amountCents: intro.amountCents, remaining: intro.payments - 1 } : null };
}

/**
 * How a processor that counts discounts in months (Stripe's `repeating` coupons) covers `payments`
 * charges of a subscription billed every `count` `interval`s: months for monthly and yearly
 * billing; for weekly or daily billing no month count fits, so the discount runs `forever` and the
 * adapter counts the payments itself and removes it after them.
 */
export function discountTerms(
  payments: number,
  interval: string,
  count = 1,
): { duration: 'repeating'; months: number } | { duration: 'forever'; counted: number } {
  if (interval === 'month') return { duration: 'repeating', months: payments * count };
  if (interval === 'year') return { duration: 'repeating', months: 12 * payments * count };
  return { duration: 'forever', counted: payments };
}
