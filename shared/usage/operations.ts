import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { MAX_QUANTITY } from './rules';
import { changeSeats, getUsage, pricingPlan, reportUsage, updateUsagePricing } from './service';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

const seatsSchema = z.object({
  enabled: z.boolean(),
  unitPriceCents: z.optional(z.number().check(z.int())),
  minimum: z.optional(z.number().check(z.int())),
  maximum: z.optional(z.number().check(z.int())),
});
const meterSchema = z.object({ key: z.string(), name: z.string(), unitPriceCents: z.number().check(z.int()), includedUnits: z.number().check(z.int()) });
// The body is checked field by field by rules.parsePricing, so each range error names its field.
const pricingBody = z
  .looseObject({ seats: z.unknown(), meters: z.unknown() })
  .check(
    z.describe(
      '`{ seats: { enabled, unitPriceCents, minimum, maximum }, meters: [{ key, name, unitPriceCents, includedUnits }] }` (at most 5 meters; money in integer cents)',
    ),
  );

const reportBody = z.object({
  meter: z
    .string({ error: "meter: required, the key of one of the offer's meters" })
    .check(z.minLength(1, 'meter: required'), z.maxLength(40, 'meter: at most 40 characters')),
  quantity: z
    .number({ error: 'quantity: required, a positive integer' })
    .check(
      z.int('quantity: must be an integer'),
      z.minimum(1, 'quantity: must be at least 1'),
      z.maximum(MAX_QUANTITY, `quantity: must be at most ${MAX_QUANTITY}`),
    ),
});

export const usageOperations = [
  defineOperation({
    operationId: 'updateUsagePricing',
    tool: 'update_usage_pricing',
    summary: "Replace an offer's seats and meters ({id} is the offer id); seats disabled and no meters returns it to flat pricing",
    tags: ['Usage'],
    method: 'PUT',
    path: '/subscriptions/{id}/usage-pricing',
    auth: 'key',
    planFor: ({ body }) => pricingPlan(body),
    params: idParams,
    body: pricingBody,
    output: z.object({ _id: z.string(), usagePricing: z.object({ seats: seatsSchema, meters: z.array(meterSchema) }), usageBilling: z.boolean() }),
    handler: (ctx, { params, body }) => updateUsagePricing(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'reportUsage',
    tool: 'report_usage',
    summary: 'Report usage of one meter (subscriber _id or mem_ id); optional Idempotency-Key header',
    description:
      'First report answers 201 with `replayed: false`; the same Idempotency-Key and body answers 200 with the original record and `replayed: true` (counted once, even under racing retries); the same key with another body answers 409 `IDEMPOTENCY_KEY_REUSED`; without a key every request counts. 300 reports a minute per subscriber (429). Aggregate before reporting: a large quantity costs the same as 1.',
    tags: ['Usage'],
    method: 'POST',
    path: '/subscriptions/{id}/usage',
    auth: 'key',
    plan: 'tier3',
    ownIdempotency: true,
    params: idParams,
    body: reportBody,
    status: 201,
    handler: (ctx, { params, body }) => reportUsage(ctx, params.id, body, ctx.request.headers['idempotency-key']),
  }),
  defineOperation({
    operationId: 'getSubscriptionUsage',
    tool: 'get_subscription_usage',
    summary: 'Current period running totals and upcoming overage, per-day series, latest reports, last 12 closed periods with charge status',
    tags: ['Usage'],
    method: 'GET',
    path: '/subscriptions/{id}/usage',
    auth: 'key',
    params: idParams,
    query: z.object({
      limit: z._default(z.coerce.number().check(z.int(), z.minimum(1, 'limit: must be at least 1'), z.maximum(100, 'limit: must be at most 100')), 20),
    }),
    handler: (ctx, { params, query }) => getUsage(ctx, params.id, query.limit),
  }),
  defineOperation({
    operationId: 'updateSubscriptionSeats',
    tool: 'update_subscription_seats',
    summary: "Change a subscriber's seats now; seats above those bought at checkout are billed at period end, prorated",
    tags: ['Usage'],
    method: 'POST',
    path: '/subscriptions/{id}/seats',
    auth: 'key',
    plan: 'tier3',
    params: idParams,
    body: z.object({ quantity: z.number({ error: 'quantity: required, an integer' }).check(z.int('quantity: must be an integer')) }),
    handler: (ctx, { params, body }) => changeSeats(ctx, params.id, body.quantity),
  }),
];
