/**
 * Discount rules with no I/O: how much a code takes off a price. Amounts are integer cents;
 * a discount never takes a price below zero.
 */
export type DiscountValue = { valueType: 'percentage'; percentOff: number } | { valueType: 'fixed'; amountOffCents: number };

/** Codes are matched case-insensitively: `summer10` and `SUMMER10` are the same code. */
export const normalizeCode = (code: string) => code.trim().toUpperCase();

export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;

export function discountAmountCents(priceCents: number, value: DiscountValue): number {
  const price = Math.max(0, Math.round(priceCents));
  const off = value.valueType === 'percentage' ? Math.round((price * value.percentOff) / 100) : Math.round(value.amountOffCents);
  return Math.min(price, Math.max(0, off));
}

export function applyDiscount(priceCents: number, value: DiscountValue): { amountOffCents: number; finalPriceCents: number } {
  const amountOffCents = discountAmountCents(priceCents, value);
  return { amountOffCents, finalPriceCents: Math.max(0, Math.round(priceCents) - amountOffCents) };
}

/** A code with an expiry is usable strictly before it. */
export const isExpired = (expiresAt: string | undefined | null, nowMs: number) => !!expiresAt && Date.parse(expiresAt) <= nowMs;

export const isExhausted = (uses: number, maxUses: number | undefined | null) => maxUses != null && uses >= maxUses;
