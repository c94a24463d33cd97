/** A product's buy link in full: the API's own origin (config) or this page's, plus the product's buyPath. */
export const buyUrl = (apiBaseUrl: string, buyPath: string) => `${apiBaseUrl || window.location.origin}${buyPath}`;

const SHARED_KEY = 'dashboard.buyLinkShared';

/** Remembers on this browser that the seller copied a buy link (per store): the checklist's "share" step. */
export const markBuyLinkShared = (accountId: string) => window.localStorage.setItem(`${SHARED_KEY}.${accountId}`, '1');
export const buyLinkShared = (accountId: string) => window.localStorage.getItem(`${SHARED_KEY}.${accountId}`) === '1';
