import { createApiClient, unwrap } from '../api/client';
import type { Mode, StoreAccess } from '../api/auth';

/**
 * Which mode a store opens in when the person has not picked one: test until the store is really
 * selling, that is until live mode has a real payment processor (Stripe) or at least one sale.
 * A new seller's first purchase is a test purchase (README), and opening in live would show zeros.
 */
export async function openingMode(baseUrl: string, live: StoreAccess | undefined): Promise<Mode> {
  if (!live) return 'test';
  const api = createApiClient(baseUrl, live.token);
  const [me, sales] = await Promise.all([unwrap(api.GET('/users/me')), unwrap(api.GET('/payments', { params: { query: { limit: 1 } } }))]);
  return liveIsInUse(me.processors.live, sales.length) ? 'live' : 'test';
}

/** The rule alone: a live Stripe account, or a live sale, means the store sells for real. */
export const liveIsInUse = (liveProcessor: string, liveSales: number) => liveProcessor === 'stripe' || liveSales > 0;

/** The person's own choice of mode, kept on this browser; null until they switch. */
export const MODE_CHOICE_KEY = 'dashboard.mode';
export const chosenMode = (): Mode | null => {
  const value = window.localStorage.getItem(MODE_CHOICE_KEY);
  return value === 'live' || value === 'test' ? value : null;
};
