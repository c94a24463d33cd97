import { sellerBrand, type SellerBrand } from '../account/branding';
import { negotiateLocale } from '../platform/i18n/locales';
import { loadTranslator, type Translator } from '../platform/i18n/translator';
import { findCustomerOfEmail } from '../sales/lookups';
import type { Scope } from '../store/keys';
import { buyerPage, type BuyerPage } from '../account/buyer-page';
import type { Deps, RequestInfo } from '../platform/context';
import { ApiError } from '../platform/errors';
import { csrfToken, csrfValid, crossSite } from './portal-csrf';
import { portalPage, saveOffersPage } from './portal-page';
import { locateSubscriber } from './repository';
import { portalChange, portalData, portalSave, portalSaveDeclined, portalSaveOffers, portalYearlySwitch } from './service';

export type PortalHtmlOutcome = { kind: 'page'; status: number; page: BuyerPage } | { kind: 'redirect'; location: string };

const baseOf = (deps: Pick<Deps, 'config'>, request: RequestInfo) => (deps.config.PUBLIC_BASE_URL ?? request.baseUrl ?? '').replace(/\/$/, '');

/** A browser asking for a page (Accept names text/html); API clients keep getting JSON. */
export const wantsHtml = (headers: Record<string, string>) => /\btext\/html\b/.test(headers.accept ?? '');

const NOTICES = { canceled: 'portal.noticeCanceled', resumed: 'portal.noticeResumed', saved: 'portal.noticeSaved', yearly: 'portal.noticeYearly' } as const;

/** The buyer's language: their saved one (from their checkout), Accept-Language, the seller's default, English. */
async function portalTranslator(
  deps: Deps,
  request: RequestInfo,
  scope: Scope | undefined,
  email: string | undefined,
  brand: SellerBrand | undefined,
): Promise<Translator> {
  const saved = scope && email ? (await findCustomerOfEmail(deps, scope, email))?.locale : undefined;
  return loadTranslator(negotiateLocale({ saved, acceptLanguage: request.headers['accept-language'], sellerDefault: brand?.locale }));
}

const plainPage = async (
  request: RequestInfo,
  status: number,
  title: 'portal.notFoundTitle' | 'portal.refusedTitle' | 'portal.linkNeededTitle',
  message: 'portal.notFound' | 'portal.refused' | 'portal.linkNeeded',
): Promise<PortalHtmlOutcome> => {
  const t = await loadTranslator(negotiateLocale({ acceptLanguage: request.headers['accept-language'] }));
  return {
    kind: 'page',
    status,
    page: buyerPage({
      brand: { name: t.t('portal.title'), logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null },
      title: t.t(title),
      baseUrl: '',
      locale: t.locale,
      body: `<section class="card"><h1>${t.html(title)}</h1><p role="alert">${t.html(message)}</p></section>`,
    }),
  };
};

/** The one error the portal page itself raises (a stale CSRF token); shown in the buyer's language. */
const FORM_EXPIRED = 'The form expired. Please try again.';

const formAction = (subscriptionId: string, subscriberId: string) => `/subscriptions/sub/portal-form/${subscriptionId}/${subscriberId}`;

/** GET portalUrl in a browser: the portal page, with the forms when the token is right. */
export async function showPortal(
  deps: Deps,
  request: RequestInfo,
  subscriptionId: string,
  subscriberId: string,
  token: string | undefined,
  done?: keyof typeof NOTICES,
  error?: string,
): Promise<PortalHtmlOutcome> {
  let data: Awaited<ReturnType<typeof portalData>>;
  try {
    data = await portalData(deps, subscriptionId, subscriberId, token);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return plainPage(request, 404, 'portal.notFoundTitle', 'portal.notFound');
    throw e;
  }
  const scope = (await locateSubscriber(deps.store, subscriberId))!;
  const baseUrl = baseOf(deps, request);
  const brand = await sellerBrand(deps, scope, baseUrl);
  const t = await portalTranslator(deps, request, scope, data.customer.email, brand);
  const manage =
    data.canManage && token
      ? { token, csrf: csrfToken(token, subscriberId), action: formAction(subscriptionId, subscriberId), cardUpdateUrl: data.cardUpdateUrl }
      : undefined;
  return {
    kind: 'page',
    status: error ? 403 : 200,
    page: portalPage({
      brand,
      data,
      baseUrl,
      manage,
      notice: done ? t.t(NOTICES[done]) : undefined,
      error: error === FORM_EXPIRED ? t.t('portal.formExpired') : error,
      t,
    }),
  };
}

/** The portal page's form post: cancel at period end or resume, then back to the page (303). */
export interface PortalForm {
  action: 'cancel' | 'resume' | 'save_pause' | 'save_discount' | 'yearly_switch';
  token?: string;
  csrf?: string;
  /** Cancel anyway, after the save offers were shown. */
  confirm?: string;
  months?: number;
  reason?: string;
}

export async function submitPortalForm(
  deps: Deps,
  request: RequestInfo,
  subscriptionId: string,
  subscriberId: string,
  form: PortalForm,
): Promise<PortalHtmlOutcome> {
  if (crossSite(request.headers, [request.baseUrl, deps.config.PUBLIC_BASE_URL ?? ''])) return plainPage(request, 403, 'portal.refusedTitle', 'portal.refused');
  const data = await portalData(deps, subscriptionId, subscriberId, form.token).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  });
  if (!data) return plainPage(request, 404, 'portal.notFoundTitle', 'portal.notFound');
  if (!data.canManage || !form.token) return plainPage(request, 403, 'portal.linkNeededTitle', 'portal.linkNeeded');
  if (!csrfValid(form.token, subscriberId, form.csrf)) return showPortal(deps, request, subscriptionId, subscriberId, form.token, undefined, FORM_EXPIRED);
  const reason = form.reason?.trim() || null;
  if (form.action === 'save_pause' || form.action === 'save_discount') {
    await portalSave(
      deps,
      subscriberId,
      form.token,
      form.action === 'save_pause' ? { kind: 'pause', months: Number(form.months) } : { kind: 'discount' },
      reason,
    );
    return {
      kind: 'redirect',
      location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${new URLSearchParams({ token: form.token, done: 'saved' })}`,
    };
  }
  if (form.action === 'yearly_switch') {
    await portalYearlySwitch(deps, subscriberId, form.token);
    return {
      kind: 'redirect',
      location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${new URLSearchParams({ token: form.token, done: 'yearly' })}`,
    };
  }
  if (form.action === 'cancel') {
    // Save offers come first; the page's "cancel anyway" form confirms.
    const offers = await portalSaveOffers(deps, subscriberId, form.token);
    if (offers && form.confirm !== '1') {
      const scope = (await locateSubscriber(deps.store, subscriberId))!;
      const baseUrl = baseOf(deps, request);
      const brand = await sellerBrand(deps, scope, baseUrl);
      const t = await portalTranslator(deps, request, scope, data.customer.email, brand);
      return {
        kind: 'page',
        status: 200,
        page: saveOffersPage({
          brand,
          data,
          baseUrl,
          offers,
          manage: { token: form.token, csrf: form.csrf!, action: formAction(subscriptionId, subscriberId) },
          t,
        }),
      };
    }
    if (offers) await portalSaveDeclined(deps, subscriberId, reason);
  }
  await portalChange(deps, subscriberId, form.token, form.action === 'cancel' ? { type: 'cancel', immediate: false } : { type: 'resume' });
  const query = new URLSearchParams({ token: form.token, done: form.action === 'cancel' ? 'canceled' : 'resumed' });
  return { kind: 'redirect', location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${query}` };
}
