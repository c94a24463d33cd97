import { jwtVerify } from 'jose';
import { findApiKey, getAccount, onApiKeyRevoked } from './accounts';
import { dashboardSessionEntity } from './entities';
import type { Scope } from '../store/keys';
import type { Account, Deps } from './context';
import { ApiError, forbidden, unauthorized } from './errors';
import { getMemberAccess } from './member-access';
import { OWNER_KEY, type Actor } from './permissions';
import { SESSION_SECRET } from './settings';

export interface Principal {
  scope: Scope;
  account: Account;
  /** The owner (API keys, account session tokens) or the team member a session token names. */
  actor: Actor;
  /** The dashboard sign-in (`sid` claim) a session token belongs to; sign-out ends them all. */
  sessionId?: string;
}

/**
 * Authentication runs inside each function rather than in an API Gateway authorizer: an HTTP API
 * Lambda authorizer can only answer 403 to a rejected key, where the contract says 401, and one
 * code path serves Lambda and the local runtime alike. Results are cached per container by the
 * key's text for 60 seconds, which is what an authorizer cache would give.
 */
const CACHE_TTL_MS = 60_000;
const cache = new Map<string, { principal: Principal; expires: number; keyId?: string }>();

export const clearAuthCache = () => cache.clear();

// A key revoked through this process (the key-management routes, the admin CLI) leaves the cache
// at once; another container keeps a cached key for the rest of its TTL (at most 60 s).
onApiKeyRevoked((keyId) => {
  for (const [token, entry] of cache) if (entry.keyId === keyId) cache.delete(token);
});

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

async function fromApiKey(deps: Deps, token: string): Promise<{ principal: Principal; keyId: string } | undefined> {
  const record = await findApiKey(deps.store, token);
  if (!record || record.revokedAt) return undefined;
  const account = await getAccount(deps.store, record.accountId);
  if (!account) return undefined;
  return {
    principal: { scope: { accountId: account.accountId, mode: record.mode }, account, actor: { type: 'owner_key', keyId: record.keyId } },
    keyId: record.keyId,
  };
}

/**
 * A session token (JWT, HS256) names the account in `sub` and the mode in `mode`; a team member's
 * token also names the member in `member`, whose current role and areas are read from the grant
 * the team capability keeps (shared/platform/member-access.ts) on every request.
 */
async function fromSessionToken(deps: Deps, token: string): Promise<Principal | undefined> {
  // Outside the try: a secret that cannot be read is the service's fault (500), not a bad token.
  const secret = await deps.ports.secrets.get(SESSION_SECRET);
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      issuer: 'creator-commerce',
      currentDate: deps.clock.now(),
    });
    const mode = payload.mode === 'live' || payload.mode === 'test' ? payload.mode : undefined;
    if (!payload.sub || !mode) return undefined;
    // A dashboard sign-in's tokens name it in `sid`: they work while it is open (sign-out deletes it).
    const sid = payload.sid;
    if (sid !== undefined && (typeof sid !== 'string' || !(await dashboardSessionEntity.get(deps.store, 'bySid', sid)))) return undefined;
    const account = await getAccount(deps.store, payload.sub);
    if (!account) return undefined;
    const scope: Scope = { accountId: account.accountId, mode };
    const session = sid ? { sessionId: sid } : {};
    // Only holders of the session secret (the service's operators, through the admin CLI) can mint `staff`.
    if (payload.member === undefined) return { scope, account, actor: payload.staff === true ? { type: 'owner_key', staff: true } : OWNER_KEY, ...session };
    if (typeof payload.member !== 'string') return undefined;
    const access = await getMemberAccess(deps.store, scope, payload.member);
    if (!access) return undefined;
    if (access.status !== 'active') throw forbidden('This team member is suspended', { code: 'MEMBER_SUSPENDED' });
    return { scope, account, actor: { type: 'member', memberId: access.memberId, email: access.email, role: access.role, areas: access.areas }, ...session };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return undefined;
  }
}

/**
 * Team members' tokens are checked against their grant on every request, and dashboard sessions
 * against their sign-in (sign-out applies at once): never cached.
 */
const cacheable = (principal: Principal) => principal.actor.type === 'owner_key' && !principal.sessionId;

export async function authenticate(deps: Deps, authorization: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized('Missing API key: send Authorization: Bearer pk_live_... or pk_test_...');
  const now = deps.clock.nowMs();
  const hit = cache.get(token);
  if (hit && hit.expires > now) return hit.principal;
  if (token.startsWith('pk_')) {
    const found = await fromApiKey(deps, token);
    if (!found) throw unauthorized('Invalid API key');
    cache.set(token, { principal: found.principal, expires: now + CACHE_TTL_MS, keyId: found.keyId });
    return found.principal;
  }
  const principal = await fromSessionToken(deps, token);
  if (!principal) throw unauthorized('Invalid API key');
  if (cacheable(principal)) cache.set(token, { principal, expires: now + CACHE_TTL_MS });
  return principal;
}
