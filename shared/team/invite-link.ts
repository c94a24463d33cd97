import { errors, jwtVerify, SignJWT } from 'jose';
import type { Scope } from '../store/keys';

/**
 * The accept link's token: an HS256 JWT signed with the session secret (the one session tokens use),
 * with its own issuer so it can never pass as a session token. It names the invite, its store and
 * the link version (a resend bumps it, so only the newest link works), and expires with the invite.
 */
const ISSUER = 'creator-commerce/team-invite';

export interface InviteClaims {
  scope: Scope;
  inviteId: string;
  linkVersion: number;
}

const secretOf = (secret: string) => new TextEncoder().encode(secret);

export async function signInviteToken(secret: string, claims: InviteClaims, expiresAt: Date, now: Date): Promise<string> {
  return new SignJWT({ acc: claims.scope.accountId, md: claims.scope.mode, inv: claims.inviteId, ver: claims.linkVersion })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secretOf(secret));
}

export type InviteTokenCheck = { ok: true; claims: InviteClaims } | { ok: false; reason: 'expired' | 'invalid' };

export async function verifyInviteToken(secret: string, token: string, now: Date): Promise<InviteTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, secretOf(secret), { algorithms: ['HS256'], issuer: ISSUER, currentDate: now });
    const { acc, md, inv, ver } = payload as Record<string, unknown>;
    if (typeof acc !== 'string' || (md !== 'live' && md !== 'test') || typeof inv !== 'string' || typeof ver !== 'number')
      return { ok: false, reason: 'invalid' };
    return { ok: true, claims: { scope: { accountId: acc, mode: md }, inviteId: inv, linkVersion: ver } };
  } catch (error) {
    return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

/** The session token a member gets on accepting: the API's own session token naming the member. */
export async function signMemberSession(secret: string, scope: Scope, memberId: string, now: Date, ttlSeconds: number): Promise<string> {
  return new SignJWT({ mode: scope.mode, member: memberId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(scope.accountId)
    .setIssuer('creator-commerce')
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(now.getTime() / 1000) + ttlSeconds)
    .sign(secretOf(secret));
}
