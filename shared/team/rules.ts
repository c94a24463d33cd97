import type { Plan } from '../platform/plans';
import { AREAS, type Area, type Role } from '../platform/permissions';
import type { InviteRecord, MemberStatus, TeamRecord, TeamState } from './records';

/** Seats per plan, the owner's included (documented in README.md). */
export const SEAT_LIMITS: Record<Plan, number> = { free: 1, tier2: 3, tier3: 10, volume: 25 };
export const INVITE_VALID_MS = 7 * 24 * 3600 * 1000;
export const INVITES_PER_HOUR = 20;
export const RESEND_INTERVAL_MS = 60 * 1000;
export const MAX_RESENDS = 5;
export const MAX_TEAMS = 50;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const seatLimit = (plan: Plan) => SEAT_LIMITS[plan];

/** The seat answer of GET /team and of SEAT_LIMIT. */
export const seatsOf = (state: TeamState, plan: Plan) => ({ limit: seatLimit(plan), used: state.used, pending: state.pending });

/** Whether one more invite fits: members and open invites both hold a seat. */
export const hasFreeSeat = (state: TeamState, plan: Plan) => state.used + state.pending < seatLimit(plan);

export const inviteExpiresAt = (now: Date) => new Date(now.getTime() + INVITE_VALID_MS);

export const isExpired = (invite: Pick<InviteRecord, 'validUntil'>, now: Date) => Date.parse(invite.validUntil) <= now.getTime();

export type ResendVerdict = { ok: true } | { ok: false; reason: 'expired' | 'too_soon' | 'limit'; retryAfterSeconds?: number };

/** Resend: at most once a minute and 5 times per invite, and only while it is open. */
export function resendVerdict(invite: Pick<InviteRecord, 'validUntil' | 'sentAt' | 'resends'>, now: Date): ResendVerdict {
  if (isExpired(invite, now)) return { ok: false, reason: 'expired' };
  if (invite.resends >= MAX_RESENDS) return { ok: false, reason: 'limit' };
  const wait = Date.parse(invite.sentAt) + RESEND_INTERVAL_MS - now.getTime();
  if (wait > 0) return { ok: false, reason: 'too_soon', retryAfterSeconds: Math.ceil(wait / 1000) };
  return { ok: true };
}

/** The start of the fixed one-hour window the invite rate limit counts in. */
export const inviteWindowStart = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);

/** Only owners give the owner role or change an owner's role (ROLE_FORBIDDEN otherwise). */
export const roleChangeAllowed = (actorIsOwner: boolean, from: Role | undefined, to: Role | undefined) => actorIsOwner || (from !== 'owner' && to !== 'owner');

/** An active owner counts toward the store's owners; a suspended one cannot act. */
export const countsAsOwner = (member: { role: Role; status: MemberStatus }) => member.role === 'owner' && member.status === 'active';

/** How a change moves the owner count (a negative move needs another owner left). */
export const ownerDelta = (before: { role: Role; status: MemberStatus } | undefined, after: { role: Role; status: MemberStatus } | undefined) =>
  (after && countsAsOwner(after) ? 1 : 0) - (before && countsAsOwner(before) ? 1 : 0);

/** A member's areas: the union of their teams' areas, in the canonical order. */
export function areasOf(teams: Pick<TeamRecord, '_id' | 'areas'>[], teamIds: string[]): Area[] {
  const granted = new Set(teams.filter((t) => teamIds.includes(t._id)).flatMap((t) => t.areas));
  return AREAS.filter((a) => granted.has(a));
}
