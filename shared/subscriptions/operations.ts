import * as z from '../platform/zod';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { openCardUpdate } from './portal-card';
import { showPortal, submitPortalForm, wantsHtml, type PortalHtmlOutcome } from './portal-html';
import {
  getSubscriberDetail,
  listSubscribersOf,
  cancelSubscription,
  pauseSubscription,
  resumeSubscription,
  portalData,
  portalChange,
  portalSave,
  portalSaveDeclined,
  portalYearlySwitch,
} from './service';

const subscriberSchema = z.looseObject({
  _id: z.string(),
  subscriptionId: z.string(),
  status: z.string(),
  active: z.boolean(),
  cancelAtPeriodEnd: z.boolean(),
  paused: z.boolean(),
  portalUrl: z.string(),
});
const portalAnswer = (outcome: PortalHtmlOutcome) =>
  outcome.kind === 'redirect'
    ? reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' })
    : rawReply(outcome.status, outcome.page.html, 'text/html; charset=utf-8', { ...outcome.page.headers, vary: 'Accept' });

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const emptyBody = z.optional(z.object({}));

export const subscriberOperations = [
  defineOperation({
    operationId: 'listSubscribers',
    tool: 'list_subscribers',
    summary: 'Subscribers, paginated (page and pageSize, or limit and cursor → nextCursor); each row with status, the joined offer and portalUrl',
    tags: ['Subscribers'],
    method: 'GET',
    path: '/subscriptions/subscribers',
    auth: 'key',
    query: z.object({
      status: z.optional(z.enum(['trialing', 'active', 'past_due', 'paused', 'canceled'])),
      buyerEmail: z.optional(z.string().check(z.maxLength(320))),
      email: z.optional(z.string().check(z.maxLength(320))),
      subscriptionId: z.optional(z.string().check(z.maxLength(64))),
      page: z._default(z.coerce.number().check(z.int(), z.minimum(1)), 1).check(z.describe('Page number (at most 50; past that follow nextCursor)')),
      pageSize: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 20),
      limit: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100))).check(z.describe('Rows per page; same as pageSize')),
      cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))).check(z.describe('nextCursor of the previous page')),
    }),
    output: z.object({
      data: z.array(subscriberSchema),
      page: z.number(),
      pageSize: z.number(),
      total: z.nullable(z.number()).check(z.describe('Rows in all, known on the last page; null while more follow')),
      nextCursor: z.nullable(z.string()),
    }),
    handler: (ctx, { query }) => listSubscribersOf(ctx, { ...query, email: query.buyerEmail ?? query.email }),
  }),
  defineOperation({
    operationId: 'getSubscriber',
    tool: 'get_subscriber',
    summary: 'One subscriber by its 24-hex _id with full payments, newest first; live=true adds processorMembership',
    tags: ['Subscribers'],
    method: 'GET',
    path: '/subscriptions/subscribers/{id}',
    auth: 'key',
    params: idParams,
    query: z.object({ live: z.optional(z.enum(['true', 'false'])) }),
    output: subscriberSchema,
    handler: (ctx, { params, query }) => getSubscriberDetail(ctx, params.id, query.live === 'true'),
  }),
  defineOperation({
    operationId: 'cancelSubscription',
    tool: 'cancel_subscription',
    summary: 'Cancel at period end (subscriber _id or mem_ id)',
    tags: ['Subscribers'],
    method: 'POST',
    path: '/subscriptions/{id}/cancel',
    auth: 'key',
    params: idParams,
    body: emptyBody,
    output: subscriberSchema,
    handler: (ctx, { params }) => cancelSubscription(ctx, params.id),
  }),
  defineOperation({
    operationId: 'pauseSubscription',
    tool: 'pause_subscription',
    summary: 'Stop payment collection; the buyer keeps access. 502 when the processor refuses',
    tags: ['Subscribers'],
    method: 'POST',
    path: '/subscriptions/{id}/pause',
    auth: 'key',
    params: idParams,
    body: emptyBody,
    output: subscriberSchema,
    handler: (ctx, { params }) => pauseSubscription(ctx, params.id),
  }),
  defineOperation({
    operationId: 'resumeSubscription',
    tool: 'resume_subscription',
    summary: 'Lift a pause or reverse a scheduled cancel',
    tags: ['Subscribers'],
    method: 'POST',
    path: '/subscriptions/{id}/resume',
    auth: 'key',
    params: idParams,
    body: emptyBody,
    output: subscriberSchema,
    handler: (ctx, { params }) => resumeSubscription(ctx, params.id),
  }),
  defineOperation({
    operationId: 'getPortalData',
    summary: 'Buyer portal: subscriber state and payments for the id pair (read-only without the token)',
    tags: ['Portal'],
    method: 'GET',
    path: '/subscriptions/sub/portal-data/{subscriptionId}/{subscriptionCustomerId}',
    auth: 'portal',
    params: z.object({
      subscriptionId: z.string().check(z.minLength(1), z.maxLength(64)),
      subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)),
    }),
    query: z.object({ token: z.optional(z.string().check(z.maxLength(128))), done: z.optional(z.enum(['canceled', 'resumed', 'saved', 'yearly'])) }),
    // A browser (Accept: text/html) gets the portal page; API clients get the JSON.
    handler: async (ctx, { params, query }) =>
      wantsHtml(ctx.request.headers)
        ? portalAnswer(await showPortal(ctx, ctx.request, params.subscriptionId, params.subscriptionCustomerId, query.token, query.done))
        : portalData(ctx, params.subscriptionId, params.subscriptionCustomerId, query.token),
  }),
  defineOperation({
    operationId: 'portalCardUpdate',
    summary: "Buyer portal: opens the payment processor's card-update page for the subscription (303); needs the portal token",
    tags: ['Portal'],
    method: 'GET',
    path: '/subscriptions/sub/portal-card/{subscriptionId}/{subscriptionCustomerId}',
    auth: 'portal',
    params: z.object({
      subscriptionId: z.string().check(z.minLength(1), z.maxLength(64)),
      subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)),
    }),
    query: z.object({ token: z.optional(z.string().check(z.maxLength(128))) }),
    handler: async (ctx, { params, query }) =>
      portalAnswer(await openCardUpdate(ctx, ctx.request, params.subscriptionId, params.subscriptionCustomerId, query.token)),
  }),
  defineOperation({
    operationId: 'portalForm',
    summary: "Buyer portal page form post (HTML): cancel at period end or resume; needs the portal token and the form's CSRF token",
    tags: ['Portal'],
    method: 'POST',
    path: '/subscriptions/sub/portal-form/{subscriptionId}/{subscriptionCustomerId}',
    auth: 'portal',
    params: z.object({
      subscriptionId: z.string().check(z.minLength(1), z.maxLength(64)),
      subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)),
    }),
    bodyType: 'json-or-form',
    body: z.object({
      action: z.enum(['cancel', 'resume', 'save_pause', 'save_discount', 'yearly_switch']),
      token: z.optional(z.string().check(z.maxLength(128))),
      csrf: z.optional(z.string().check(z.maxLength(128))),
      confirm: z.optional(z.string().check(z.maxLength(8))),
      months: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(12))),
      reason: z.optional(z.string().check(z.maxLength(40))),
    }),
    handler: async (ctx, { params, body }) =>
      portalAnswer(await submitPortalForm(ctx, ctx.request, params.subscriptionId, params.subscriptionCustomerId, body)),
  }),
  defineOperation({
    operationId: 'portalCancel',
    summary: 'Buyer portal: cancel at period end, or now with { immediate: true }; needs the portal token',
    tags: ['Portal'],
    method: 'POST',
    path: '/subscriptions/sub/portal/{subscriptionCustomerId}/cancel',
    auth: 'portal',
    params: z.object({ subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({ token: z.optional(z.string().check(z.maxLength(128))) }),
    description:
      'When the offer has save offers (retention), `saveOffer` accepts one instead of canceling: `{ kind: "pause", months }` (1 to pauseMaxMonths) or `{ kind: "discount" }`; `reason` is kept for the report. `GET portal-data` lists them as `saveOffers`.',
    body: z.optional(
      z.object({
        immediate: z.optional(z.boolean()),
        token: z.optional(z.string().check(z.maxLength(128))),
        saveOffer: z.optional(z.object({ kind: z.enum(['pause', 'discount']), months: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(12))) })),
        reason: z.optional(z.string().check(z.maxLength(40))),
      }),
    ),
    handler: async (ctx, { params, query, body }) => {
      const token = query.token ?? body?.token;
      if (body?.saveOffer) return portalSave(ctx, params.subscriptionCustomerId, token, body.saveOffer, body.reason ?? null);
      const answer = await portalChange(ctx, params.subscriptionCustomerId, token, { type: 'cancel', immediate: body?.immediate === true });
      if (body?.reason !== undefined || ctx.ports.subscriptionSaveOffers)
        await portalSaveDeclined(ctx, params.subscriptionCustomerId, body?.reason ?? null).catch(() => undefined);
      return answer;
    },
  }),
  defineOperation({
    operationId: 'portalYearlySwitch',
    summary: 'Buyer portal: accept the offered switch to yearly billing (retention), applied at the next period boundary; needs the portal token',
    tags: ['Portal'],
    method: 'POST',
    path: '/subscriptions/sub/portal/{subscriptionCustomerId}/yearly-switch',
    auth: 'portal',
    params: z.object({ subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({ token: z.optional(z.string().check(z.maxLength(128))) }),
    body: z.optional(z.object({ token: z.optional(z.string().check(z.maxLength(128))) })),
    handler: (ctx, { params, query, body }) => portalYearlySwitch(ctx, params.subscriptionCustomerId, query.token ?? body?.token),
  }),
  defineOperation({
    operationId: 'portalResume',
    summary: 'Buyer portal: clear a scheduled cancel or restore a canceled subscription; needs the portal token',
    tags: ['Portal'],
    method: 'POST',
    path: '/subscriptions/sub/portal/{subscriptionCustomerId}/resume',
    auth: 'portal',
    params: z.object({ subscriptionCustomerId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({ token: z.optional(z.string().check(z.maxLength(128))) }),
    body: z.optional(z.object({ token: z.optional(z.string().check(z.maxLength(128))) })),
    handler: (ctx, { params, query, body }) => portalChange(ctx, params.subscriptionCustomerId, query.token ?? body?.token, { type: 'resume' }),
  }),
];
