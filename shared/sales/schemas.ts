import * as z from '../platform/zod';
import { pageQuery } from '../platform/paging';

const paymentMethod = z.nullable(
  z.object({ id: z.string(), type: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number(), expYear: z.number() }),
);

export const saleSchema = z.looseObject({
  _id: z.string(),
  type: z.enum(['one_time', 'subscription']),
  billingReason: z.nullable(z.enum(['initial', 'renewal', 'usage'])),
  productId: z.string(),
  subscriptionId: z.nullable(z.string()),
  subscriberId: z.nullable(z.string()),
  customerId: z.string(),
  buyerEmail: z.string(),
  amount: z.number(),
  amountCents: z.number().check(z.int()),
  currency: z.string(),
  status: z.enum(['completed', 'refunded', 'disputed']),
  refundedAmount: z.number(),
  tax: z
    .object({ amount: z.number(), amountCents: z.number().check(z.int()), rate: z.number() })
    .check(z.describe('Tax the processor computed on top of amount (Stripe Tax in live mode when the seller turned it on; zero otherwise)')),
  vatNumber: z.nullable(z.string()),
  paymentIntentId: z.nullable(z.string()),
  lines: z
    .optional(
      z.array(
        z.object({
          productId: z.string(),
          productName: z.string(),
          amount: z.number(),
          amountCents: z.number().check(z.int()),
          upsellId: z.nullable(z.string()),
        }),
      ),
    )
    .check(z.describe('Only when the buyer took an upsell at checkout: the product and the upsell, summing to amount')),
  paymentMethod,
  clientReferenceId: z.nullable(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

/** One order as GET /orders/{id} answers it: the sale, its fresh download links and its licence keys. */
export const orderSchema = z.extend(saleSchema, {
  downloads: z
    .array(z.object({ fileId: z.string(), name: z.string(), size: z.number().check(z.int()), url: z.string(), expiresAt: z.string() }))
    .check(z.describe('Fresh signed links (an hour) to every file of what the order bought; empty once refunded')),
  licenseKeys: z
    .array(z.looseObject({ key: z.string(), status: z.enum(['active', 'revoked', 'refunded', 'expired']) }))
    .check(z.describe('The licence keys issued with the order')),
});

export const customerSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  buyerEmail: z.string(),
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
  country: z.nullable(z.string()),
  productId: z.nullable(z.string()),
  productIds: z.array(z.string()),
  testMode: z.boolean(),
  numberOfOrders: z.number().check(z.int()),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/**
 * The lists the spec shapes as bare arrays answer one page (1,000 rows unless `limit`) and name the
 * next in the `X-Next-Cursor` header (and `Link`); without the header it was the last page.
 */
export const ARRAY_PAGE_DEFAULT = 1000;
export const ARRAY_PAGE_MAX = 1000;
export const ordersQuery = z.object({ ...pageQuery(ARRAY_PAGE_DEFAULT, ARRAY_PAGE_MAX) });
export const paymentsQuery = z.object({ type: z.optional(z.enum(['one_time', 'subscription'])), ...pageQuery(ARRAY_PAGE_DEFAULT, ARRAY_PAGE_MAX) });
export const refundBody = z.optional(z.object({ amountCents: z.optional(z.number().check(z.int(), z.positive())) }));
export const paymentQuery = z.object({ live: z.optional(z.enum(['true', 'false'])) });

export const customersQuery = z.object({
  productId: z.optional(z.string().check(z.maxLength(64))),
  sort: z.optional(z.enum(['newest', 'oldest', 'orders', 'email'])),
  ...pageQuery(ARRAY_PAGE_DEFAULT, ARRAY_PAGE_MAX),
});

export const createCustomerBody = z.object({
  email: z.string().check(z.trim(), z.email('email must be a valid email address')),
  firstName: z.optional(z.string().check(z.maxLength(100))),
  lastName: z.optional(z.string().check(z.maxLength(100))),
  country: z.optional(z.string().check(z.length(2, 'country is a 2-letter code'))),
  productId: z.optional(z.string().check(z.maxLength(64))),
});
