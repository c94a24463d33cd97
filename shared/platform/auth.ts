import { jwtVerify } from 'jose';
import { findApiKey, getAccount } from './accounts';
import type { Scope } from '../store/keys';
import type { Account, Deps } from './context';
import { unauthorized } from './errors';

export interface Principal {
  scope: Scope;
  account: Account;
}

/**
 * Authentication runs inside each function rather than in an API Gateway authorizer: an HTTP API
 * Lambda authorizer can only answer 403 to a rejected key, where the contract says 401, and one
 * code path serves Lambda and the local runtime alike. Results are cached per container by the
 * key's text for 60 seconds, which is what an authorizer cache would give.
 */
const CACHE_TTL_MS = 60_000;
const cache = new Map<string, { principal: Principal; expires: number }>();

export const clearAuthCache = () => cache.clear();

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

async function fromApiKey(deps: Deps, token: string): Promise<Principal | undefined> {
  const record = await findApiKey(deps.store, token);
  if (!record || record.revokedAt) return undefined;
  const account = await getAccount(deps.store, record.accountId);
  if (!account) return undefined;
  return { scope: { accountId: account.accountId, mode: record.mode }, account };
}

/** A session token (JWT, HS256) names the account in `sub` and the mode in `mode`. */
async function fromSessionToken(deps: Deps, token: string): Promise<Principal | undefined> {
  if (!deps.config.JWT_SECRET) return undefined;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(deps.config.JWT_SECRET), {
      algorithms: ['HS256'],
      issuer: 'creator-commerce',
      currentDate: deps.clock.now(),
    });
    const mode = payload.mode === 'live' || payload.mode === 'test' ? payload.mode : undefined;
    if (!payload.sub || !mode) return undefined;
    const account = await getAccount(deps.store, payload.sub);
    return account ? { scope: { accountId: account.accountId, mode }, account } : undefined;
  } catch {
    return undefined;
  }
}

export async function authenticate(deps: Deps, authorization: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token) throw unauthorized('Missing API key: send Authorization: Bearer pk_live_... or pk_test_...');
  const now = deps.clock.nowMs();
  const hit = cache.get(token);
  if (hit && hit.expires > now) return hit.principal;
  const principal = token.startsWith('pk_') ? await fromApiKey(deps, token) : await fromSessionToken(deps, token);
  if (!principal) throw unauthorized('Invalid API key');
  cache.set(token, { principal, expires: now + CACHE_TTL_MS });
  return principal;
}
