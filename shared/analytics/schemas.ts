import * as z from '../platform/zod';

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD'));

export const summaryQuery = z.object({
  from: day.check(z.describe('First day, UTC, included')),
  to: day.check(z.describe('Last day, UTC, included; at most 366 days after from')),
  currency: z.optional(z.string().check(z.regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code'))).check(z.describe("Default: the account's currency")),
});

const cents = z.number().check(z.int());
const dayRow = z.object({
  date: z.string(),
  grossCents: cents,
  refundsCents: cents,
  netCents: cents,
  sales: cents,
  recoveredCents: cents.check(z.describe("Of grossCents, sales made through an abandoned-checkout mail's link (PUT /checkout/recovery)")),
  recoveredSales: cents.check(z.describe("How many of the sales came through an abandoned-checkout mail's link")),
  newSubscribers: cents,
  churnedSubscribers: cents,
});

export const summaryOutput = z.object({
  currency: z.string(),
  totals: z.object({
    grossCents: cents,
    refundsCents: cents,
    netCents: cents,
    sales: cents,
    recoveredCents: cents.check(z.describe("Of grossCents, sales made through an abandoned-checkout mail's link")),
    recoveredSales: cents,
  }),
  days: z.array(dayRow),
  mrrCents: cents.check(z.describe('Monthly recurring revenue now: what active and trialing subscribers pay per month, discounts included')),
  activeSubscribers: cents,
  newSubscribers: cents,
  churnedSubscribers: cents,
  topProducts: z
    .array(z.object({ productId: z.string(), name: z.string(), sales: cents, grossCents: cents }))
    .check(z.describe('The five products (or subscription offers) with the most gross revenue in the period and currency; refunds are not taken off')),
});
