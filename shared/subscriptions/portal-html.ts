import { sellerBrand } from '../account/branding';
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

const NOTICES = { canceled: 'Your subscription will end at the close of the current period. You keep access until then.', resumed: 'Your subscription continues. Thank you for staying!', saved: 'Thank you for staying! Your offer is applied.', yearly: 'Your subscription switches to yearly billing at the next renewal.' } as const;

const plainPage = (status: number, title: string, message: string): PortalHtmlOutcome => ({
  kind: 'page',
  status,
  page: buyerPage({ brand: { name: 'Subscription', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null }, title, baseUrl: '', body: `<section class="card"><h1>${title}</h1><p role="alert">${message}</p></section>` }),
});

const formAction = (subscriptionId: string, subscriberId: string) => `/subscriptions/sub/portal-form/${subscriptionId}/${subscriberId}`;

/** GET portalUrl in a browser: the portal page, with the forms when the token is right. */
export async function showPortal(deps: Deps, request: RequestInfo, subscriptionId: string, subscriberId: string, token: string | undefined, done?: keyof typeof NOTICES, error?: string): Promise<PortalHtmlOutcome> {
  let data: Awaited<ReturnType<typeof portalData>>;
  try {
    data = await portalData(deps, subscriptionId, subscriberId, token);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return plainPage(404, 'Subscription not found', 'This link does not match a subscription. Check the link in your receipt.');
    throw e;
  }
  const scope = (await locateSubscriber(deps.store, subscriberId))!;
  const baseUrl = baseOf(deps, request);
  const brand = await sellerBrand(deps, scope, baseUrl);
  const manage = data.canManage && token ? { token, csrf: csrfToken(token, subscriberId), action: formAction(subscriptionId, subscriberId), cardUpdateUrl: data.cardUpdateUrl } : undefined;
  return { kind: 'page', status: error ? 403 : 200, page: portalPage({ brand, data, baseUrl, manage, notice: done ? NOTICES[done] : undefined, error }) };
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

export async function submitPortalForm(deps: Deps, request: RequestInfo, subscriptionId: string, subscriberId: string, form: PortalForm): Promise<PortalHtmlOutcome> {
  if (crossSite(request.headers, [request.baseUrl, deps.config.PUBLIC_BASE_URL ?? ''])) return plainPage(403, 'Request refused', 'This change did not come from the subscription page. Open the link in your receipt and try again.');
  const data = await portalData(deps, subscriptionId, subscriberId, form.token).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  });
  if (!data) return plainPage(404, 'Subscription not found', 'This link does not match a subscription. Check the link in your receipt.');
  if (!data.canManage || !form.token) return plainPage(403, 'Link needed', 'Changes need the link from your receipt.');
  if (!csrfValid(form.token, subscriberId, form.csrf)) return showPortal(deps, request, subscriptionId, subscriberId, form.token, undefined, 'The form expired. Please try again.');
  const reason = form.reason?.trim() || null;
  if (form.action === 'save_pause' || form.action === 'save_discount') {
    await portalSave(deps, subscriberId, form.token, form.action === 'save_pause' ? { kind: 'pause', months: Number(form.months) } : { kind: 'discount' }, reason);
    return { kind: 'redirect', location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${new URLSearchParams({ token: form.token, done: 'saved' })}` };
  }
  if (form.action === 'yearly_switch') {
    await portalYearlySwitch(deps, subscriberId, form.token);
    return { kind: 'redirect', location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${new URLSearchParams({ token: form.token, done: 'yearly' })}` };
  }
  if (form.action === 'cancel') {
    // Save offers come first; the page's "cancel anyway" form confirms.
    const offers = await portalSaveOffers(deps, subscriberId, form.token);
    if (offers && form.confirm !== '1') {
      const scope = (await locateSubscriber(deps.store, subscriberId))!;
      const baseUrl = baseOf(deps, request);
      const brand = await sellerBrand(deps, scope, baseUrl);
      return { kind: 'page', status: 200, page: saveOffersPage({ brand, data, baseUrl, offers, manage: { token: form.token, csrf: form.csrf!, action: formAction(subscriptionId, subscriberId) } }) };
    }
    if (offers) await portalSaveDeclined(deps, subscriberId, reason);
  }
  await portalChange(deps, subscriberId, form.token, form.action === 'cancel' ? { type: 'cancel', immediate: false } : { type: 'resume' });
  const query = new URLSearchParams({ token: form.token, done: form.action === 'cancel' ? 'canceled' : 'resumed' });
  return { kind: 'redirect', location: `/subscriptions/sub/portal-data/${subscriptionId}/${subscriberId}?${query}` };
}
