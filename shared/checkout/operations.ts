import * as z from '../platform/zod';
import { sellerBrand } from '../account/branding';
import { buyerPage } from '../account/buyer-page';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator } from '../platform/i18n/translator';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { followRecoveryLink, readRecovery, RECOVERY_PATH, updateRecovery } from './recovery';
import { buyLinkThanks, openBuyLink } from './buy-link';
import { createSessionBody, recoveryAnswer, recoveryBody, sessionAnswer } from './schemas';
import { createCheckoutSession, publicBaseUrl } from './service';

const linkText = (max: number) => z.optional(z.string().check(z.maxLength(max, `at most ${max} characters`)));

export const checkoutOperations = [
  defineOperation({
    operationId: 'createCheckoutSession',
    tool: 'create_checkout_session',
    summary: 'Open a hosted checkout for a product or a subscription offer',
    description:
      'Answers 201 with `{ id, url }`; redirect the buyer to `url`. `metadata` and `clientReferenceId` (or `externalId`) are replayed on every later event of the purchase. `customerEmail` prefills the page and lets an abandoned checkout be mailed (PUT /checkout/recovery).',
    tags: ['Checkout'],
    method: 'POST',
    path: '/checkout/sessions',
    auth: 'key',
    body: createSessionBody,
    output: sessionAnswer,
    status: 201,
    handler: (ctx, { body }) => createCheckoutSession(ctx, body),
  }),
  defineOperation({
    operationId: 'getCheckoutRecovery',
    tool: 'get_checkout_recovery',
    summary: 'Abandoned-checkout recovery settings: whether buyers who left a checkout get one mail, after how long, with which code',
    tags: ['Checkout'],
    method: 'GET',
    path: '/checkout/recovery',
    auth: 'key',
    output: recoveryAnswer,
    handler: (ctx) => readRecovery(ctx, ctx.scope),
  }),
  defineOperation({
    operationId: 'updateCheckoutRecovery',
    tool: 'update_checkout_recovery',
    summary:
      "Turn abandoned-checkout recovery on or off: one mail, in the buyer's language, delayMinutes (30 to 2880) after an unpaid checkout with a known buyer email opened, with a link back and an optional discount code",
    description:
      'Emits `checkout.abandoned` for each abandoned checkout; a purchase made through the link carries `metadata.recovered: true` and `metadata.recoveredFrom` (the abandoned session) on `order.completed`.',
    tags: ['Checkout'],
    method: 'PUT',
    path: '/checkout/recovery',
    auth: 'key',
    body: recoveryBody,
    output: recoveryAnswer,
    handler: (ctx, { body }) => updateRecovery(ctx, ctx.scope, body),
  }),
  defineOperation({
    operationId: 'followCheckoutRecoveryLink',
    summary:
      "The link in an abandoned-checkout mail: redirects to a payable checkout for the same product (the same session while it is open, else a fresh one, with the seller's code)",
    tags: ['Checkout'],
    method: 'GET',
    path: `${RECOVERY_PATH}/{token}`,
    auth: 'public',
    unmetered: true,
    params: z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({ lang: z.optional(z.string().check(z.maxLength(35))) }),
    handler: async (ctx, { params, query }) => {
      const base = publicBaseUrl(ctx);
      const outcome = await followRecoveryLink(ctx, params.token, base);
      if (outcome.kind === 'redirect')
        return reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      const brand = outcome.scope
        ? await sellerBrand(ctx, outcome.scope, base)
        : { name: 'Checkout', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null };
      const t = await loadTranslator(
        negotiateLocale({ query: query.lang, acceptLanguage: ctx.request.headers['accept-language'], sellerDefault: brand.locale }),
      );
      const page = buyerPage({
        brand,
        title: t.t('recovery.goneTitle'),
        baseUrl: base,
        locale: t.locale,
        body: `<section class="card"><h1>${t.html('recovery.goneTitle')}</h1><p id="gone">${t.html('recovery.gone')}</p></section>`,
      });
      return rawReply(410, page.html, 'text/html; charset=utf-8', page.headers);
    },
  }),
  defineOperation({
    operationId: 'openBuyLink',
    summary: "A product's public buy link: opens a new hosted checkout and redirects to it (303)",
    description:
      "Put it in a bio, a post or a button. `discount` applies a code, `amount` sets a pay-what-you-want price, `email` fills in the buyer (the session's `customerEmail`, as on POST /checkout/sessions: an abandoned checkout is then mailed when recovery is on), `ref` credits a partner, `quantity` (offers sold per seat), `lang` the language of the checkout (en, fr, de, es, pt-BR, ja). Link previews and prefetches see the product and open no checkout; an address opens at most a few checkouts a minute; unpaid checkouts opened here expire after a day.",
    tags: ['Checkout'],
    method: 'GET',
    path: '/buy/{productId}',
    auth: 'public',
    unmetered: true,
    params: z.object({ productId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    query: z.object({
      discount: linkText(100),
      email: linkText(320),
      quantity: linkText(10),
      ref: linkText(100),
      amount: linkText(20),
      view: linkText(20),
      lang: linkText(35),
    }),
    handler: async (ctx, { params, query }) => {
      const outcome = await openBuyLink(ctx, ctx.request, params.productId, query, publicBaseUrl(ctx));
      if (outcome.kind === 'redirect')
        return reply(303, undefined, { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex' });
      return rawReply(outcome.status, outcome.html, 'text/html; charset=utf-8', outcome.headers);
    },
  }),
  defineOperation({
    operationId: 'buyLinkThanks',
    summary: "Where a buy link's checkout returns when the link was not opened from a page: the order is complete, the receipt is on its way (HTML)",
    tags: ['Checkout'],
    method: 'GET',
    path: '/buy/{productId}/thanks',
    auth: 'public',
    unmetered: true,
    params: z.object({ productId: z.string().check(z.minLength(1), z.maxLength(64)) }),
    handler: async (ctx, { params }) => {
      const page = await buyLinkThanks(ctx, params.productId, publicBaseUrl(ctx), ctx.request.headers['accept-language']);
      return rawReply(page.status, page.html, 'text/html; charset=utf-8', page.headers);
    },
  }),
];
