import * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { getRetentionOffer, listRetentionOffers, updateRetentionOffer } from './offers';
import { getRecoverySettingsView, getRecoverySummary, listAtRisk, updateRecoverySettings } from './recovery';
import { introReport, saveOffersReport } from './reports';
import { FINAL_ACTIONS, REQUIRED_PLAN, turnsOn } from './rules';

const TAGS = ['Retention'];
const days = z._default(
  z.coerce.number().check(z.int('days: must be a whole number'), z.minimum(1, 'days: must be at least 1'), z.maximum(366, 'days: must be at most 366')),
  30,
);
const money = z.array(z.object({ currency: z.string(), amount: z.number(), count: z.number().check(z.int()) }));

const settingsOut = z.object({
  enabled: z.boolean(),
  finalAction: z.enum(['cancel', 'pause', 'keep']),
  emailBuyer: z.boolean(),
  retryDays: z.array(z.number().check(z.int())),
  updatedAt: z.nullable(z.string()),
});
const settingsBody = z.strictObject({
  enabled: z.optional(z.boolean({ error: 'enabled: must be true or false' })),
  finalAction: z.optional(z.enum(FINAL_ACTIONS as [string, ...string[]], { error: 'finalAction: must be cancel, pause or keep' })),
  emailBuyer: z.optional(z.boolean({ error: 'emailBuyer: must be true or false' })),
});

const offerConfigBody = z
  .record(z.string(), z.unknown())
  .check(
    z.describe(
      '`{ saveOffers: { enabled, pauseMaxMonths 1-3, discountPercent 5-90, discountMonths 1-12 }, intro: { enabled, price (major units, at least 1.00, below the regular price, no trial), periods 1-12 }, yearlySwitch: { enabled, afterPayments 1-24, percentOff 1-50 } }`; each group is optional and replaces the fields it names',
    ),
  );
const offerOut = z.object({
  id: z.string(),
  name: z.string(),
  price: z.number(),
  currency: z.string(),
  frequency: z.string(),
  saveOffers: z.object({
    enabled: z.boolean(),
    pauseMaxMonths: z.number().check(z.int()),
    discountPercent: z.number().check(z.int()),
    discountMonths: z.number().check(z.int()),
  }),
  intro: z.object({ enabled: z.boolean(), price: z.nullable(z.number()), periods: z.number().check(z.int()) }),
  yearlySwitch: z.object({ enabled: z.boolean(), afterPayments: z.number().check(z.int()), percentOff: z.number().check(z.int()) }),
  updatedAt: z.nullable(z.string()),
});

export const retentionOperations = [
  defineOperation({
    operationId: 'getRecoverySummary',
    tool: 'get_recovery_summary',
    summary: 'Failed-renewal recovery over the last `days` (default 30): recovered and at-risk money per currency, counts, recovery rate, entitlement',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/recovery/summary',
    auth: 'key',
    query: z.object({ days }),
    output: z.object({
      days: z.number().check(z.int()),
      recovered: money,
      recoveredCount: z.number().check(z.int()),
      atRisk: money,
      atRiskCount: z.number().check(z.int()),
      lostCount: z.number().check(z.int()),
      recoveryRate: z.number(),
      entitlement: z.object({ allowed: z.boolean(), requiredPlan: z.string() }),
    }),
    handler: (ctx, { query }) => getRecoverySummary(ctx, query.days),
  }),
  defineOperation({
    operationId: 'listAtRiskSubscriptions',
    tool: 'list_at_risk_subscriptions',
    summary: 'Failed renewals under recovery by `status` (open, recovered, closed), newest first; cursor pagination with `limit` and `after`',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/recovery/at-risk',
    auth: 'key',
    query: z.object({
      status: z._default(z.enum(['open', 'recovered', 'closed'], { error: 'status: must be open, recovered or closed' }), 'open'),
      limit: z._default(z.coerce.number().check(z.int(), z.minimum(1, 'limit: must be at least 1'), z.maximum(100, 'limit: must be at most 100')), 20),
      after: z.optional(z.string().check(z.maxLength(2000))),
    }),
    handler: (ctx, { query }) => listAtRisk(ctx, query),
  }),
  defineOperation({
    operationId: 'getRecoverySettings',
    tool: 'get_recovery_settings',
    summary: 'Failed-renewal recovery settings: enabled, finalAction (cancel, pause, keep), emailBuyer',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/recovery/settings',
    auth: 'key',
    output: settingsOut,
    handler: (ctx) => getRecoverySettingsView(ctx),
  }),
  defineOperation({
    operationId: 'updateRecoverySettings',
    tool: 'update_recovery_settings',
    summary: 'Change recovery settings; turning recovery on needs Pro, switching it off is always allowed',
    tags: TAGS,
    method: 'PUT',
    path: '/subscription-retention/recovery/settings',
    auth: 'key',
    planFor: ({ body }) => (turnsOn(body) ? REQUIRED_PLAN : undefined),
    body: settingsBody,
    output: settingsOut,
    handler: (ctx, { body }) => updateRecoverySettings(ctx, body as never),
  }),
  defineOperation({
    operationId: 'getSaveOffersReport',
    tool: 'get_save_offers_report',
    summary: 'Save offers over the last `days` (default 30): saved subscriptions, reasons, recent flows',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/save-offers/report',
    auth: 'key',
    query: z.object({ days }),
    handler: (ctx, { query }) => saveOffersReport(ctx, query.days),
  }),
  defineOperation({
    operationId: 'getIntroPricingReport',
    tool: 'get_intro_pricing_report',
    summary: 'Intro pricing and yearly switch counts',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/intro/report',
    auth: 'key',
    handler: (ctx) => introReport(ctx),
  }),
  defineOperation({
    operationId: 'listRetentionOffers',
    tool: 'list_retention_offers',
    summary: 'Retention settings of every subscription offer',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/offers',
    auth: 'key',
    output: z.object({ data: z.array(offerOut) }),
    handler: (ctx) => listRetentionOffers(ctx),
  }),
  defineOperation({
    operationId: 'getRetentionOffer',
    tool: 'get_retention_offer',
    summary: 'Retention settings of one subscription offer',
    tags: TAGS,
    method: 'GET',
    path: '/subscription-retention/offers/{id}',
    auth: 'key',
    params: z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) }),
    output: offerOut,
    handler: (ctx, { params }) => getRetentionOffer(ctx, params.id),
  }),
  defineOperation({
    operationId: 'updateRetentionOffer',
    tool: 'update_retention_offer',
    summary:
      "Change an offer's saveOffers, intro and yearlySwitch; out-of-range values answer 400 INVALID_RETENTION_CONFIG with `field`; turning a feature on needs Pro",
    tags: TAGS,
    method: 'PUT',
    path: '/subscription-retention/offers/{id}',
    auth: 'key',
    planFor: ({ body }) => (turnsOn(body) ? REQUIRED_PLAN : undefined),
    params: z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) }),
    body: offerConfigBody,
    output: offerOut,
    handler: (ctx, { params, body }) => updateRetentionOffer(ctx, params.id, body),
  }),
];
