import * as z from '../platform/zod';
import { isApiError } from '../platform/errors';
import { ANY_ORIGIN } from '../platform/cors';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { requestLanguage } from '../account/buyer-language';
import { matchLocale } from '../platform/i18n/locales';
import { langQuery } from '../platform/i18n/query';
import type { Translator } from '../platform/i18n/translator';
import { alreadyAnsweredPage, closedPage, missingPage, surveyPage, thanksPage, SURVEY_PAGE_HEADERS } from './page';
import { answerBody, reportQuery, reportSchema, settingsBody, settingsSchema, tokenParams } from './schemas';
import { SURVEY_PLAN, answerSurvey, attributionReport, readSettings, updateSettings, visitSurvey, type SurveyVisit } from './service';

const page = (status: number, html: string) => rawReply(status, html, 'text/html; charset=utf-8', SURVEY_PAGE_HEADERS);

const visitPage = (visit: Exclude<SurveyVisit, { kind: 'open' }>, t: Translator) =>
  visit.kind === 'answered' ? page(409, alreadyAnsweredPage(t)) : visit.kind === 'missing' ? page(404, missingPage(t)) : page(410, closedPage(t));

/** The receipt's survey link carries the receipt's language (?lang=); else the browser's. The form posts back with it. */
const languageOf = (ctx: { request: { headers: Record<string, string> } }, lang: string | undefined) =>
  requestLanguage(lang, ctx.request.headers['accept-language']);
const actionOf = (token: string, t: Translator, lang: string | undefined) =>
  `/survey/${token}${matchLocale(lang) ? `?lang=${encodeURIComponent(t.locale)}` : ''}`;

export const surveyOperations = [
  defineOperation({
    operationId: 'getAttributionSurvey',
    tool: 'get_attribution_survey',
    summary: 'The post-purchase "how did you hear about us?" survey settings',
    tags: ['Attribution survey'],
    method: 'GET',
    path: '/attribution-survey/settings',
    auth: 'key',
    output: settingsSchema,
    handler: async (ctx) => readSettings(ctx),
  }),
  defineOperation({
    operationId: 'updateAttributionSurvey',
    tool: 'update_attribution_survey',
    summary: 'Saves the survey settings; saving with enabled true needs Growth',
    description:
      'question up to 120 characters; 2 to 12 options `{ id?, label, channel? }`, label up to 60; `id` keeps past answers after a rename, new options get an id from the label; `other` is reserved for the free-text answer (`allowOther`). Fields left out keep their value.',
    tags: ['Attribution survey'],
    method: 'PUT',
    path: '/attribution-survey/settings',
    auth: 'key',
    planFor: ({ body }) => (body?.enabled === true ? SURVEY_PLAN : undefined),
    body: settingsBody,
    output: settingsSchema,
    handler: async (ctx, { body }) => updateSettings(ctx, body),
  }),
  defineOperation({
    operationId: 'getAttributionReport',
    tool: 'get_attribution_report',
    summary: 'Survey answers and tracked-link channels of a date range (default 30 days, at most 366)',
    description: "Refunded orders are excluded; the key's mode decides which orders count. Revenue is in the account currency.",
    tags: ['Attribution survey'],
    method: 'GET',
    path: '/attribution-survey/report',
    auth: 'key',
    query: reportQuery,
    output: reportSchema,
    handler: async (ctx, { query }) => attributionReport(ctx, query),
  }),
  defineOperation({
    operationId: 'showAttributionSurvey',
    summary: "The buyer's survey page (public; the order's receipt token is the permission)",
    tags: ['Attribution survey'],
    method: 'GET',
    path: '/survey/{token}',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      const t = await languageOf(ctx, query.lang);
      const visit = await visitSurvey(ctx, params.token);
      if (visit.kind !== 'open') return visitPage(visit, t);
      return page(200, surveyPage({ settings: visit.settings, productName: visit.productName, action: actionOf(params.token, t, query.lang), t }));
    },
  }),
  defineOperation({
    operationId: 'answerAttributionSurvey',
    summary: "The buyer's answer: an HTML form post (or JSON `{ answer, otherText? }`), once per order",
    tags: ['Attribution survey'],
    method: 'POST',
    path: '/survey/{token}',
    auth: 'public',
    unmetered: true,
    params: tokenParams,
    bodyType: 'json-or-form',
    body: z.optional(z.record(z.string(), z.unknown())),
    // A seller's thank-you page on their own site may ask the question and post the JSON answer.
    cors: ANY_ORIGIN,
    query: langQuery,
    handler: async (ctx, { params, body, query }) => {
      const t = await languageOf(ctx, query.lang);
      const asPage = (ctx.request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      // The token is the only permission (no cookie), so a page on another site gains nothing it
      // could not with curl: JSON answers from any origin are welcome (cors). Our own HTML form is
      // only ever posted from our own page, so a form post the browser marks cross-site is refused.
      if (asPage && ctx.request.headers['sec-fetch-site'] === 'cross-site') return page(403, closedPage(t));
      const parsed = answerBody.safeParse(body ?? {});
      const input = parsed.success ? parsed.data : { answer: '' };
      try {
        const done = await answerSurvey(ctx, params.token, input);
        if (done.kind !== 'answered' && done.kind !== 'open')
          return asPage
            ? visitPage(done, t)
            : reply(done.kind === 'missing' ? 404 : 410, {
                error: done.kind === 'missing' ? 'Survey not found' : 'This survey is not open',
                code: done.kind === 'missing' ? undefined : 'SURVEY_CLOSED',
              });
        return asPage ? page(200, thanksPage(t)) : reply(200, { answered: true });
      } catch (error) {
        if (!isApiError(error) || !asPage) throw error;
        if (error.status === 409) return page(409, alreadyAnsweredPage(t));
        if (error.status !== 400) throw error;
        const visit = await visitSurvey(ctx, params.token);
        if (visit.kind !== 'open') return visitPage(visit, t);
        return page(
          400,
          surveyPage({
            settings: visit.settings,
            productName: visit.productName,
            action: actionOf(params.token, t, query.lang),
            error: error.message,
            chosen: input.answer,
            otherText: input.otherText,
            t,
          }),
        );
      }
    },
  }),
];
