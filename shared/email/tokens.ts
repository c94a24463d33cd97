import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Scope } from '../store/keys';

/**
 * Tokens of the links in a mail (unsubscribe, open pixel, click redirect): the scope, the
 * recipient and what the link does, signed with the account and mode's own secret (HMAC-SHA256).
 * A click token carries the exact URL the mail contained, so the redirect goes nowhere else.
 */
export type TokenKind = 'u' | 'o' | 'c';

export interface TokenPayload {
  a: string;
  m: Scope['mode'];
  /** Recipient email. */
  e: string;
  k: TokenKind;
  /** Post id (absent on mail that belongs to no post). */
  p?: string;
  /** Click target. */
  url?: string;
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const mac = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest().subarray(0, 18);

export function signToken(secret: string, payload: TokenPayload): string {
  const body = b64(JSON.stringify(payload));
  return `${body}.${b64(mac(secret, body))}`;
}

/** Reads the unsigned payload (to find whose secret checks it); trust nothing until verified. */
export function peekToken(token: string): TokenPayload | undefined {
  const [body, signature] = token.split('.');
  if (!body || !signature || token.split('.').length !== 2) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenPayload;
    if (
      typeof payload.a !== 'string' ||
      (payload.m !== 'live' && payload.m !== 'test') ||
      typeof payload.e !== 'string' ||
      !['u', 'o', 'c'].includes(payload.k)
    )
      return undefined;
    return payload;
  } catch {
    return undefined;
  }
}

export function verifyToken(secret: string, token: string): boolean {
  const [body, signature] = token.split('.');
  if (!body || !signature) return false;
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
