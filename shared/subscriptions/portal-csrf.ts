import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * CSRF defence of the portal page's forms. The form token is an HMAC of the subscriber id keyed
 * with the portal token, so only a page rendered for the holder of the portal link carries a valid
 * one; and a browser that says the post came from another site (Origin, Sec-Fetch-Site) is refused
 * before the token is even looked at.
 */
export const csrfToken = (portalToken: string, subscriberId: string) =>
  createHmac('sha256', portalToken).update(`portal-form:${subscriberId}`).digest('base64url');

export function csrfValid(portalToken: string, subscriberId: string, given: string | undefined): boolean {
  if (!given) return false;
  const expected = Buffer.from(csrfToken(portalToken, subscriberId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * True when the browser reports a cross-site request (a form on another site posting here):
 * Sec-Fetch-Site where the browser sends it, else an Origin that is none of this API's own.
 */
export function crossSite(headers: Record<string, string>, ownOrigins: string[]): boolean {
  const site = headers['sec-fetch-site'];
  if (site) return site !== 'same-origin' && site !== 'none';
  const origin = headers.origin;
  if (!origin) return false;
  const own = new Set(
    ownOrigins
      .map((o) => {
        try {
          return new URL(o).origin;
        } catch {
          return '';
        }
      })
      .filter(Boolean),
  );
  if (headers.host) own.add(`http://${headers.host}`).add(`https://${headers.host}`);
  return !own.has(origin);
}
