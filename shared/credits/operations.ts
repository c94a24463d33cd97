import { langQuery } from '../platform/i18n/query';
import * as z from '../platform/zod';
import { isApiError } from '../platform/errors';
import { defineOperation, rawReply } from '../platform/operation';
import { balancePage, missingBalancePage, wantsHtml } from './balance-page';
import { balanceOfLink, disableConsentAsSeller, disableConsentByLink, type BalanceView } from './consent';
import { balanceViewSchema, creditAccountSchema, deductAnswer, deductBody, listAccountsQuery } from './schemas';
import { deductCredits, listCreditAccounts } from './service';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });
const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });
const PAGE_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', vary: 'Accept' };
const baseOf = (config: { PUBLIC_BASE_URL?: string }, request: { baseUrl: string }) => (config.PUBLIC_BASE_URL ?? request.baseUrl ?? '').replace(/\/$/, '');
const jsonView = ({ scope: _scope, ...view }: BalanceView) => view;

/** The form posts back with the page's explicit language, so the answer page keeps it. */
const consentAction = (token: string, lang: string | undefined) => `/credits/balance/${token}/consent${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`;

export const creditOperations = [
  defineOperation({
    operationId: 'deductCredits',
    tool: 'deduct_credits',
    summary: 'Record credit usage (integer cents); never below zero; may trigger the one auto-refill charge',
    tags: ['Credits'],
    method: 'POST',
    path: '/credits/deduct',
    auth: 'key',
    body: deductBody,
    output: deductAnswer,
    handler: (ctx, { body }) => deductCredits(ctx, body),
  }),
  defineOperation({
    operationId: 'listCreditAccounts',
    tool: 'list_credit_accounts',
    summary: 'Credit balances; optional email and productId filters',
    tags: ['Credits'],
    method: 'GET',
    path: '/credits/accounts',
    auth: 'key',
    query: listAccountsQuery,
    output: z.array(creditAccountSchema),
    handler: (ctx, { query }) => listCreditAccounts(ctx, query),
  }),
  defineOperation({
    operationId: 'disableCreditConsent',
    tool: 'disable_credit_consent',
    summary: "Withdraws the buyer's consent to auto top-ups: the saved card is detached and never charged again; emits credit.consent.disabled",
    description:
      '`{id}` is the credit account `_id` as `GET /credits/accounts` lists it. Answers the account (`autoRefill.enabled` false). Already off: 200, nothing emitted.',
    tags: ['Credits'],
    method: 'DELETE',
    path: '/credits/accounts/{id}/consent',
    auth: 'key',
    params: idParams,
    output: creditAccountSchema,
    handler: (ctx, { params }) => disableConsentAsSeller(ctx, ctx.scope, params.id),
  }),
  defineOperation({
    operationId: 'showCreditBalance',
    summary: "The buyer's balance page from the link in their credit mails (public; the link is the permission): balance and auto top-ups",
    tags: ['Credits'],
    method: 'GET',
    path: '/credits/balance/{token}',
    auth: 'portal',
    unmetered: true,
    params: tokenParams,
    query: langQuery,
    output: balanceViewSchema,
    handler: async (ctx, { params, query }) => {
      const html = wantsHtml(ctx.request.headers);
      const language = { lang: query.lang, acceptLanguage: ctx.request.headers['accept-language'] };
      try {
        const { view } = await balanceOfLink(ctx, params.token);
        if (!html) return jsonView(view);
        const page = await balancePage(ctx, view, { baseUrl: baseOf(ctx.config, ctx.request), action: consentAction(params.token, query.lang), ...language });
        return rawReply(200, page.html, 'text/html; charset=utf-8', { ...page.headers, ...PAGE_HEADERS });
      } catch (error) {
        if (html && isApiError(error) && error.status === 404) {
          const missing = await missingBalancePage(language);
          return rawReply(404, missing.html, 'text/html; charset=utf-8', { ...missing.headers, ...PAGE_HEADERS });
        }
        throw error;
      }
    },
  }),
  defineOperation({
    operationId: 'turnOffCreditAutoRefill',
    summary: 'The buyer turns auto top-ups off from their balance page (HTML form post, or JSON); emits credit.consent.disabled',
    tags: ['Credits'],
    method: 'POST',
    path: '/credits/balance/{token}/consent',
    auth: 'portal',
    unmetered: true,
    params: tokenParams,
    bodyType: 'json-or-form',
    body: z.optional(z.object({})),
    query: langQuery,
    output: balanceViewSchema,
    handler: async (ctx, { params, query }) => {
      const asPage = (ctx.request.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
      const language = { lang: query.lang, acceptLanguage: ctx.request.headers['accept-language'] };
      // The link is the only permission, and our own page is the only one that posts this form.
      if (asPage && ctx.request.headers['sec-fetch-site'] === 'cross-site')
        return rawReply(403, (await missingBalancePage(language)).html, 'text/html; charset=utf-8', PAGE_HEADERS);
      try {
        const view = await disableConsentByLink(ctx, params.token);
        if (!asPage) return jsonView(view);
        const page = await balancePage(ctx, view, {
          baseUrl: baseOf(ctx.config, ctx.request),
          action: consentAction(params.token, query.lang),
          turnedOff: true,
          ...language,
        });
        return rawReply(200, page.html, 'text/html; charset=utf-8', { ...page.headers, ...PAGE_HEADERS });
      } catch (error) {
        if (asPage && isApiError(error) && error.status === 404) {
          const missing = await missingBalancePage(language);
          return rawReply(404, missing.html, 'text/html; charset=utf-8', { ...missing.headers, ...PAGE_HEADERS });
        }
        throw error;
      }
    },
  }),
];
