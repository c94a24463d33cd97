import { createHash } from 'node:crypto';
import { AREAS, type Area, type Role } from '../platform/permissions';
import type { Mode } from '../store/keys';
import type { SignInLinkRecord, StoreAccess } from './records';

/** A sign-in link works once, for 15 minutes. */
export const LINK_TTL_SECONDS = 15 * 60;
/** Session tokens (every store and mode of one sign-in) live 12 hours. */
export const SESSION_TTL_SECONDS = 12 * 3600;
/** Links per address and window: enough for a typo'd inbox, too few to flood one. */
export const LINKS_PER_WINDOW = 5;
export const LINK_WINDOW_SECONDS = 15 * 60;
/** Keys that are not revoked, per store and mode: keeps the key list a small partition. */
export const MAX_ACTIVE_KEYS = 50;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Rate windows and links are keyed by hashes, so an address never sits in a key as text it need not. */
export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export type LinkVerdict = 'ok' | 'used' | 'expired';

/** What a found link is worth now. A used link says so even after its 15 minutes. */
export function linkVerdict(link: Pick<SignInLinkRecord, 'validUntil' | 'usedAt'>, now: Date): LinkVerdict {
  if (link.usedAt) return 'used';
  if (now.getTime() >= Date.parse(link.validUntil)) return 'expired';
  return 'ok';
}

/** The fixed window a request at `nowMs` counts in, and the seconds until it ends (Retry-After). */
export function rateWindow(nowMs: number, windowSeconds = LINK_WINDOW_SECONDS): { start: number; retryAfterSeconds: number } {
  const size = windowSeconds * 1000;
  const start = Math.floor(nowMs / size) * size;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + size - nowMs) / 1000)) };
}

export interface OwnedAccount {
  accountId: string;
  name?: string;
  email: string;
}

export interface Grant {
  accountId?: string;
  mode?: Mode;
  memberId: string;
  role: Role;
  areas: Area[];
  status: 'active' | 'suspended';
}

const MODES: Mode[] = ['live', 'test'];

/**
 * The stores and modes a person reaches: each account they own in both modes (as the owner, every
 * area), and each store and mode where their grant is active (a suspended member is left out). An
 * owner who is also listed as a member of their own store keeps the owner's entry. Sorted by store
 * name, live before test, so the answer is stable.
 */
export function reachableStores(owned: OwnedAccount[], grants: Grant[], storeNames: Map<string, string>): StoreAccess[] {
  const byKey = new Map<string, StoreAccess>();
  for (const account of owned) {
    for (const mode of MODES) {
      byKey.set(`${account.accountId}#${mode}`, {
        accountId: account.accountId,
        storeName: account.name ?? account.email,
        mode,
        role: 'owner',
        areas: [...AREAS],
        memberId: null,
      });
    }
  }
  for (const grant of grants) {
    if (grant.status !== 'active' || !grant.accountId || !grant.mode) continue;
    const key = `${grant.accountId}#${grant.mode}`;
    const storeName = storeNames.get(grant.accountId);
    if (byKey.has(key) || storeName === undefined) continue;
    byKey.set(key, {
      accountId: grant.accountId,
      storeName,
      mode: grant.mode,
      role: grant.role,
      areas: AREAS.filter((a) => grant.areas.includes(a)),
      memberId: grant.memberId,
    });
  }
  return [...byKey.values()].sort(
    (a, b) => a.storeName.localeCompare(b.storeName) || a.accountId.localeCompare(b.accountId) || MODES.indexOf(a.mode) - MODES.indexOf(b.mode),
  );
}

/** API keys are the store's keys to everything: only owners and admins manage them. */
export const managesKeys = (actor: { type: 'owner_key' } | { type: 'member'; role: Role }) =>
  actor.type === 'owner_key' || actor.role === 'owner' || actor.role === 'admin';

/** Where the mail's link points: the dashboard's own address (its sign-in page reads `token`). */
export const signInLink = (dashboardUrl: string, token: string) => `${dashboardUrl.replace(/\/+$/, '')}/sign-in?token=${encodeURIComponent(token)}`;
