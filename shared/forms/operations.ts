import * as z from '../platform/zod';
import { ANY_ORIGIN } from '../platform/cors';
import { defineOperation, rawReply } from '../platform/operation';
import { isApiError } from '../platform/errors';
import { confirmedPage, confirmGonePage, EMBED_SCRIPT, framePage, previewPage } from './embed';
import { requestLanguage } from '../account/buyer-language';
import { langQuery } from '../platform/i18n/query';
import { isEditing } from './rules';
import { confirmParams, deletedSchema, formCreateBody, formSchema, formUpdateBody, idParams, publicQuery, subscribeAnswer, subscribeBody } from './schemas';
import {
  baseUrlOf,
  confirmSubscription,
  createForm,
  dailyOf,
  deleteForm,
  getForm,
  listForms,
  presentForm,
  readPublicForm,
  recordView,
  subscribe,
  updateForm,
} from './service';
import { sellerBrand } from '../account/branding';

const tags = ['Signup forms'];

export const formOperations = [
  defineOperation({
    operationId: 'listSignupForms',
    tool: 'list_signup_forms',
    summary: "Signup forms of the key's mode, newest first, with stats and embed snippets",
    tags,
    method: 'GET',
    path: '/forms',
    auth: 'key',
    output: z.array(formSchema),
    handler: async (ctx) => (await listForms(ctx, ctx.scope)).map((f) => presentForm(f, baseUrlOf(ctx, ctx.request))),
  }),
  defineOperation({
    operationId: 'createSignupForm',
    tool: 'create_signup_form',
    summary: 'Creates an inline form, slide-in or popup (per-type default copy for what is left out)',
    tags,
    method: 'POST',
    path: '/forms',
    auth: 'key',
    plan: 'tier2',
    body: formCreateBody,
    output: formSchema,
    status: 201,
    handler: async (ctx, { body }) => presentForm(await createForm(ctx, body), baseUrlOf(ctx, ctx.request)),
  }),
  defineOperation({
    operationId: 'getSignupForm',
    tool: 'get_signup_form',
    summary: 'One signup form with stats, embed snippets and views and signups per UTC day (30 days)',
    tags,
    method: 'GET',
    path: '/forms/{id}',
    auth: 'key',
    params: idParams,
    output: formSchema,
    handler: async (ctx, { params }) =>
      presentForm(await getForm(ctx, ctx.scope, params.id), baseUrlOf(ctx, ctx.request), await dailyOf(ctx, ctx.scope, params.id)),
  }),
  defineOperation({
    operationId: 'updateSignupForm',
    tool: 'update_signup_form',
    summary: 'Edits a signup form (needs Growth); setting only `status` (pause, archive, resume) stays open on every plan',
    tags,
    method: 'PATCH',
    path: '/forms/{id}',
    auth: 'key',
    params: idParams,
    body: formUpdateBody,
    planFor: ({ body }) => (body && isEditing(body as Record<string, unknown>) ? 'tier2' : undefined),
    output: formSchema,
    handler: async (ctx, { params, body }) => presentForm(await updateForm(ctx, params.id, body), baseUrlOf(ctx, ctx.request)),
  }),
  defineOperation({
    operationId: 'deleteSignupForm',
    tool: 'delete_signup_form',
    summary: 'Deletes a signup form; its embeds render nothing afterwards',
    tags,
    method: 'DELETE',
    path: '/forms/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => deleteForm(ctx, ctx.scope, params.id),
  }),
  defineOperation({
    operationId: 'getPublicSignupForm',
    summary: 'What a page renders (public, any origin); a paused form answers { id, status, render: false }',
    tags,
    method: 'GET',
    path: '/forms/public/{id}',
    auth: 'public',
    params: idParams,
    query: publicQuery,
    cors: ANY_ORIGIN,
    handler: async (ctx, { params, query }) => readPublicForm(ctx, params.id, { preview: query.preview === '1' }),
  }),
  defineOperation({
    operationId: 'subscribeWithSignupForm',
    summary: 'Public signup (no key, any origin): { status: subscribed, leadMagnet } or { status: confirm_email }',
    description:
      'Body `email`, `name`, `company` (honeypot, must stay empty), `elapsedMs`. A filled honeypot or a submit under 1.5 s gets the success answer and is ignored. 10 signups per 15 minutes per IP (429 SIGNUP_RATE_LIMITED). The answer never reveals whether the address was subscribed. `application/json` from any origin (the preflight is answered), and `text/plain` JSON so browsers need no preflight.',
    tags,
    method: 'POST',
    path: '/forms/public/{id}/subscribe',
    auth: 'public',
    params: idParams,
    body: subscribeBody,
    output: subscribeAnswer,
    cors: ANY_ORIGIN,
    handler: async (ctx, { params, body }) => subscribe(ctx, ctx.request, params.id, body),
  }),
  defineOperation({
    operationId: 'recordSignupFormView',
    summary: 'The embed counts a view when it shows the form (public, any origin)',
    tags,
    method: 'POST',
    path: '/forms/public/{id}/view',
    auth: 'public',
    params: idParams,
    cors: ANY_ORIGIN,
    handler: async (ctx, { params }) => {
      await recordView(ctx, params.id);
      return { counted: true };
    },
  }),
  defineOperation({
    operationId: 'confirmSignupFormSubscription',
    summary: 'The double opt-in link of the confirmation mail: joins the list once (HTML page)',
    tags,
    method: 'GET',
    path: '/forms/public/{id}/confirm/{token}',
    auth: 'public',
    params: confirmParams,
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      // The mailed link carries the mail's language (?lang=): the page speaks it too.
      const t = await requestLanguage(query.lang, ctx.request.headers['accept-language']);
      try {
        const { form, scope, leadMagnet } = await confirmSubscription(ctx, params.id, params.token);
        const base = (ctx.request.baseUrl ?? '').replace(/\/$/, '');
        const page = confirmedPage(await sellerBrand(ctx, scope, base), base, form.successHeadline, form.successMessage, leadMagnet, t);
        return rawReply(200, page.html, 'text/html; charset=utf-8', page.headers);
      } catch (error) {
        if (isApiError(error) && error.status === 404) {
          const page = confirmGonePage(t);
          return rawReply(404, page.html, 'text/html; charset=utf-8', page.headers);
        }
        throw error;
      }
    },
  }),
  defineOperation({
    operationId: 'getSignupFormScript',
    summary: 'The embed script (one <script> tag renders the form)',
    tags,
    method: 'GET',
    path: '/forms/public/{id}/embed.js',
    auth: 'public',
    params: idParams,
    cors: ANY_ORIGIN,
    handler: async () => rawReply(200, EMBED_SCRIPT, 'application/javascript; charset=utf-8', { 'cache-control': 'public, max-age=300' }),
  }),
  defineOperation({
    operationId: 'getSignupFormFrame',
    summary: 'The page the iframe snippet loads',
    tags,
    method: 'GET',
    path: '/forms/public/{id}/frame',
    auth: 'public',
    params: idParams,
    handler: async (ctx, { params }) => rawReply(200, framePage(baseUrlOf(ctx, ctx.request), params.id), 'text/html; charset=utf-8'),
  }),
  defineOperation({
    operationId: 'previewSignupForm',
    summary: 'Live preview of the saved form (shown at once, views not counted)',
    tags,
    method: 'GET',
    path: '/forms/public/{id}/preview',
    auth: 'public',
    params: idParams,
    handler: async (ctx, { params }) => rawReply(200, previewPage(baseUrlOf(ctx, ctx.request), params.id), 'text/html; charset=utf-8'),
  }),
];
