import { buyerPage } from '../account/buyer-page';
import type { Deps, RequestInfo } from '../platform/context';
import { ApiError } from '../platform/errors';
import type { PortalHtmlOutcome } from './portal-html';
import { portalCardUpdate } from './service';

const baseOf = (deps: Pick<Deps, 'config'>, request: RequestInfo) => (deps.config.PUBLIC_BASE_URL ?? request.baseUrl ?? '').replace(/\/$/, '');

const NEUTRAL = { name: 'Subscription', logoUrl: null, accent: '#1d4ed8', accentText: '#1d4ed8', onAccent: '#ffffff', supportEmail: null };

const page = (status: number, title: string, message: string): PortalHtmlOutcome => ({
  kind: 'page',
  status,
  page: buyerPage({ brand: NEUTRAL, title, baseUrl: '', body: `<section class="card"><h1>${title}</h1><p role="alert">${message}</p></section>` }),
});

/**
 * The portal's "Update your card" link (portal page and failed-payment mail): a fresh processor
 * card-update page per visit, reached by a 303 that sends no referrer.
 */
export async function openCardUpdate(
  deps: Deps,
  request: RequestInfo,
  subscriptionId: string,
  subscriberId: string,
  token: string | undefined,
): Promise<PortalHtmlOutcome> {
  try {
    const { url } = await portalCardUpdate(deps, subscriptionId, subscriberId, token, baseOf(deps, request));
    return { kind: 'redirect', location: url };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return page(404, 'Subscription not found', 'This link does not match a subscription. Use the link in your most recent email.');
    if (error instanceof ApiError && error.status === 409)
      return page(409, 'Card update not available', 'This subscription has no card to update right now. Contact the seller if you need help.');
    throw error;
  }
}
