import * as z from 'zod';

const paymentMethod = z.object({ id: z.string(), type: z.string(), brand: z.string(), last4: z.string(), expMonth: z.number(), expYear: z.number() }).nullable();

export const saleSchema = z.looseObject({
  _id: z.string(),
  type: z.enum(['one_time', 'subscription']),
  billingReason: z.enum(['initial', 'renewal', 'usage']).nullable(),
  productId: z.string(),
  subscriptionId: z.string().nullable(),
  subscriberId: z.string().nullable(),
  customerId: z.string(),
  buyerEmail: z.string(),
  amount: z.number(),
  amountCents: z.number().int(),
  currency: z.string(),
  status: z.enum(['completed', 'refunded', 'disputed']),
  refundedAmount: z.number(),
  paymentIntentId: z.string().nullable(),
  lines: z
    .array(z.object({ productId: z.string(), productName: z.string(), amount: z.number(), amountCents: z.number().int(), upsellId: z.string().nullable() }))
    .optional()
    .describe('Only when the buyer took an upsell at checkout: the product and the upsell, summing to amount'),
  paymentMethod,
  clientReferenceId: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const customerSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  buyerEmail: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  country: z.string().nullable(),
  productId: z.string().nullable(),
  productIds: z.array(z.string()),
  testMode: z.boolean(),
  numberOfOrders: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const idParams = z.object({ id: z.string().min(1).max(64) });

export const paymentsQuery = z.object({ type: z.enum(['one_time', 'subscription']).optional() });
export const refundBody = z.object({ amountCents: z.number().int().positive().optional() }).optional();
export const paymentQuery = z.object({ live: z.enum(['true', 'false']).optional() });

export const customersQuery = z.object({
  productId: z.string().max(64).optional(),
  sort: z.enum(['newest', 'oldest', 'orders', 'email']).optional(),
});

export const createCustomerBody = z.object({
  email: z.string().trim().email('email must be a valid email address'),
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  country: z.string().length(2, 'country is a 2-letter code').optional(),
  productId: z.string().max(64).optional(),
});
