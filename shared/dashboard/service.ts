import { jwtVerify, SignJWT } from 'jose';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../platform/accounts';
import type { OperationContext, PublicContext } from '../platform/context';
import { ApiError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../platform/errors';
import { randomBase62 } from '../platform/ids';
import { AREAS, OWNER_KEY, type Area, type Role } from '../platform/permissions';
import { SESSION_SECRET } from '../platform/settings';
import { sendPlatformMail } from '../platform-mail/send';
import { ConditionFailed } from '../store/store';
import { signInMail } from './mail';
import { issueSignInLink } from './sign-in-link';
import type { StoreAccess } from './records';
import { accountById, countLink, deleteSession, getLink, grantsOf, ownedAccounts, useLink } from './repository';
import { LINKS_PER_WINDOW, linkVerdict, managesKeys, MAX_ACTIVE_KEYS, normalizeEmail, rateWindow, reachableStores, SESSION_TTL_SECONDS, sha256 } from './rules';

const ISSUER = 'creator-commerce';
const secretOf = (secret: string) => new TextEncoder().encode(secret);

/** The secret session tokens are signed with (made at deploy time, or on the local runtime's first start). */
const sessionSecret = (ctx: PublicContext | OperationContext) => ctx.ports.secrets.get(SESSION_SECRET);

/** Every store and mode the address reaches now (one index query for owned accounts, one for grants). */
async function storesOf(ctx: PublicContext, email: string): Promise<StoreAccess[]> {
  const [owned, grants] = await Promise.all([ownedAccounts(ctx.store, email), grantsOf(ctx.store, email)]);
  const wanted = [...new Set(grants.filter((g) => g.status === 'active' && g.accountId).map((g) => g.accountId!))].filter(
    (id) => !owned.some((a) => a.accountId === id),
  );
  const others = await Promise.all(wanted.map((id) => accountById(ctx.store, id)));
  const names = new Map<string, string>([...owned, ...others.filter((a) => a !== undefined)].map((a) => [a.accountId, a.name ?? a.email]));
  return reachableStores(owned, grants, names);
}

// ---- sign-in ----

/**
 * Mails a sign-in link when the address reaches a store; answers the same either way. The window
 * counts every address asked for, known or not, so the limit itself reveals nothing either.
 */
export async function requestMagicLink(ctx: PublicContext, rawEmail: string): Promise<{ sent: true }> {
  const email = normalizeEmail(rawEmail);
  const nowMs = ctx.clock.nowMs();
  const window = rateWindow(nowMs);
  if (!(await countLink(ctx.store, sha256(email), window.start, window.start + window.retryAfterSeconds * 1000 + 1000, LINKS_PER_WINDOW))) {
    throw tooManyRequests(
      window.retryAfterSeconds,
      `Too many sign-in links for this address: try again in ${window.retryAfterSeconds} s`,
      'SIGN_IN_RATE_LIMITED',
    );
  }
  const stores = await storesOf(ctx, email);
  if (stores.length === 0) return { sent: true };
  const link = await issueSignInLink(ctx, email, ctx.request.baseUrl);
  // A refused mail is logged, counted and retried (platform-mail); the answer must not differ for a
  // known address either way.
  await sendPlatformMail(ctx, 'sign-in', { to: [email], ...signInMail({ link, stores: [...new Set(stores.map((s) => s.storeName))] }) });
  return { sent: true };
}

async function signSession(secret: string, store: StoreAccess, sid: string, now: Date, until: Date): Promise<string> {
  return new SignJWT({ mode: store.mode, sid, ...(store.memberId ? { member: store.memberId } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(store.accountId)
    .setIssuer(ISSUER)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(until.getTime() / 1000))
    .sign(secretOf(secret));
}

const linkGone = (verdict: 'used' | 'expired') =>
  verdict === 'used'
    ? new ApiError(410, 'This sign-in link was used already: ask for a new one', { code: 'LINK_USED' })
    : new ApiError(410, 'This sign-in link has expired (links work for 15 minutes): ask for a new one', { code: 'LINK_EXPIRED' });

/** Uses a link once and issues one session token per store and mode, all naming one sign-in (sid). */
export async function exchangeLink(ctx: PublicContext, token: string) {
  const secret = await sessionSecret(ctx);
  const tokenHash = sha256(token);
  const link = await getLink(ctx.store, tokenHash);
  if (!link) throw badRequest('This sign-in link is not valid: ask for a new one', { code: 'INVALID_LINK' });
  const now = ctx.clock.now();
  const verdict = linkVerdict(link, now);
  if (verdict !== 'ok') throw linkGone(verdict);
  const stores = await storesOf(ctx, link.email);
  const sid = randomBase62(24);
  // Whole seconds: a JWT's `exp` has no finer grain, and `me` answers from it.
  const until = new Date(Math.floor(now.getTime() / 1000 + SESSION_TTL_SECONDS) * 1000);
  try {
    await useLink(ctx.store, tokenHash, now, { sid, email: link.email, createdAt: now.toISOString(), validUntil: until.toISOString() });
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const again = await getLink(ctx.store, tokenHash);
    throw linkGone(again ? (linkVerdict(again, now) === 'expired' ? 'expired' : 'used') : 'used');
  }
  return {
    expiresAt: until.toISOString(),
    email: link.email,
    stores: await Promise.all(stores.map(async (store) => ({ ...store, token: await signSession(secret, store, sid, now, until) }))),
  };
}

/**
 * The claims of the session token in use. The kernel has verified it (and that its sign-in is
 * open) before the handler runs; it is read again here for `sid` and `exp`, which the principal
 * does not carry. API keys and tokens without a sign-in are not dashboard sessions.
 */
async function sessionClaims(ctx: OperationContext): Promise<{ sid: string; expiresAt: string }> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(ctx.request.headers.authorization ?? '')?.[1];
  const notSession = () => badRequest('This is not a dashboard session token (API keys and admin tokens have no sign-in to end)', { code: 'NOT_A_SESSION' });
  if (!token || token.startsWith('pk_')) throw notSession();
  const secret = await sessionSecret(ctx);
  try {
    const { payload } = await jwtVerify(token, secretOf(secret), { algorithms: ['HS256'], issuer: ISSUER, currentDate: ctx.clock.now() });
    if (typeof payload.sid !== 'string' || typeof payload.exp !== 'number') throw notSession();
    return { sid: payload.sid, expiresAt: new Date(payload.exp * 1000).toISOString() };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw notSession();
  }
}

export async function readSession(ctx: OperationContext) {
  const { expiresAt } = await sessionClaims(ctx);
  const actor = ctx.actor ?? OWNER_KEY;
  const role: Role = actor.type === 'member' ? actor.role : 'owner';
  const areas: Area[] = actor.type === 'member' && actor.role === 'member' ? AREAS.filter((a) => actor.areas.includes(a)) : [...AREAS];
  return {
    accountId: ctx.scope.accountId,
    storeName: ctx.account.name ?? ctx.account.email,
    mode: ctx.scope.mode,
    role,
    areas,
    email: actor.type === 'member' ? actor.email : normalizeEmail(ctx.account.email),
    expiresAt,
  };
}

export async function signOut(ctx: OperationContext): Promise<void> {
  const { sid } = await sessionClaims(ctx);
  await deleteSession(ctx.store, sid);
}

// ---- API keys ----

function requireKeyManager(ctx: OperationContext) {
  const actor = ctx.actor ?? OWNER_KEY;
  if (!managesKeys(actor)) throw forbidden("API keys are managed by the store's owners and admins", { code: 'ROLE_FORBIDDEN' });
}

const keyView = (record: ApiKeyRecord) => ({
  id: record.keyId,
  name: record.name ?? null,
  mode: record.mode,
  prefix: record.hint,
  createdAt: record.createdAt,
  ...(record.revokedAt ? { revokedAt: record.revokedAt } : {}),
});

// An account's keys are one small index partition (admin CLI and these routes only create them,
// and at most MAX_ACTIVE_KEYS unrevoked per mode), so it is read whole and filtered by mode.
const keysOfMode = async (ctx: OperationContext) => (await listApiKeys(ctx.store, ctx.scope.accountId)).filter((k) => k.mode === ctx.scope.mode);

export async function listKeys(ctx: OperationContext) {
  requireKeyManager(ctx);
  return { data: (await keysOfMode(ctx)).map(keyView) };
}

export async function createKey(ctx: OperationContext, name: string) {
  requireKeyManager(ctx);
  const active = (await keysOfMode(ctx)).filter((k) => !k.revokedAt).length;
  if (active >= MAX_ACTIVE_KEYS)
    throw conflict(`This store has ${MAX_ACTIVE_KEYS} ${ctx.scope.mode} keys already: revoke one first`, 'KEY_LIMIT', { limit: MAX_ACTIVE_KEYS });
  const { key, record } = await createApiKey(ctx.store, ctx.clock, ctx.scope.accountId, ctx.scope.mode, name);
  const { revokedAt: _none, ...view } = keyView(record);
  return { ...view, key };
}

export async function revokeKey(ctx: OperationContext, id: string) {
  requireKeyManager(ctx);
  const record = (await keysOfMode(ctx)).find((k) => k.keyId === id);
  if (!record) throw notFound('API key');
  if (!record.revokedAt) await revokeApiKey(ctx.store, ctx.clock, ctx.scope.accountId, id);
  const after = (await keysOfMode(ctx)).find((k) => k.keyId === id);
  return { id, revokedAt: after?.revokedAt ?? record.revokedAt ?? ctx.clock.now().toISOString() };
}
