import { createHash } from 'node:crypto';
import { badRequest } from '../platform/errors';

/** Tracked-link rules: pure functions, unit-tested (test/unit/links-rules.test.ts). */

export const CHANNELS = ['instagram', 'tiktok', 'youtube', 'x', 'facebook', 'email', 'ads', 'other'] as const;
export type Channel = (typeof CHANNELS)[number];

export const LINK_LIMITS = { name: 100, targetUrl: 2048, pageSize: 100, defaultPageSize: 20 } as const;

/** The query parameter the redirect adds to the target, and the checkout `metadata` key that carries it. */
export const LINK_PARAM = 'tl';
export const LINK_METADATA_KEY = 'trackedLink';
/** The visitor cookie, scoped to the redirect path. */
export const VISITOR_COOKIE = 'tlv';

/** A target the redirect may send people to: an absolute http(s) address without credentials. */
export function checkTargetUrl(value: string): string {
  const text = value.trim();
  if (text.length > LINK_LIMITS.targetUrl) throw badRequest(`targetUrl is longer than ${LINK_LIMITS.targetUrl} characters`, { field: 'targetUrl' });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest('targetUrl must be an absolute http or https address', { field: 'targetUrl' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('targetUrl must use http or https', { field: 'targetUrl' });
  if (url.username || url.password) throw badRequest('targetUrl must not carry a user name or password', { field: 'targetUrl' });
  if (!url.hostname) throw badRequest('targetUrl has no host', { field: 'targetUrl' });
  return url.toString();
}

/** Where a click goes: the target with `tl=<code>` added, so the shop can pass it into its checkout. */
export function redirectLocation(targetUrl: string, code: string): string {
  const url = new URL(targetUrl);
  url.searchParams.set(LINK_PARAM, code);
  return url.toString();
}

/**
 * Who clicked: the visitor cookie when the browser sends one, otherwise a hash of address and
 * user agent (which then becomes the cookie, so the same browser stays the same visitor).
 */
export function visitorIdOf(input: { cookie?: string; ip: string; userAgent: string }): { id: string; fromCookie: boolean } {
  if (input.cookie && /^[A-Za-z0-9_-]{16,64}$/.test(input.cookie)) return { id: input.cookie, fromCookie: true };
  return { id: createHash('sha256').update(`${input.ip}|${input.userAgent}`).digest('base64url').slice(0, 32), fromCookie: false };
}

/** A visitor of one link, as stored: a hash, never the cookie or the address itself. */
export const visitorKeyOf = (linkId: string, visitorId: string) => createHash('sha256').update(`${linkId}:${visitorId}`).digest('base64url');

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The link code a sale carries in its checkout metadata, if any. */
export function linkCodeOf(metadata: unknown): string | undefined {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const value = (metadata as Record<string, unknown>)[LINK_METADATA_KEY];
  return typeof value === 'string' && /^[A-Za-z0-9]{8,32}$/.test(value) ? value : undefined;
}
