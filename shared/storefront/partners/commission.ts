/** A partner's commission on one referred sale, in integer cents (half-up rounding). */
export const commissionCents = (amountCents: number, commissionPercent: number): number =>
  Math.max(0, Math.round((Math.max(0, amountCents) * commissionPercent) / 100));

export interface ReferralSaleTotals {
  sales: number;
  revenueCents: number;
  commissionCents: number;
}

/** Sums referral-sale records; refunds are out of scope of these numbers (see README). */
export function totalSales(records: { amountCents: number; commissionCents: number }[]): ReferralSaleTotals {
  return records.reduce(
    (sum, r) => ({ sales: sum.sales + 1, revenueCents: sum.revenueCents + r.amountCents, commissionCents: sum.commissionCents + r.commissionCents }),
    { sales: 0, revenueCents: 0, commissionCents: 0 },
  );
}
