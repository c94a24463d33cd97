import { activityWrite, listActivity } from '../platform/activity';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../platform/errors';
import { slidingAllowance, slidingRetryAfterSeconds } from '../platform/sliding-window';
import { objectId } from '../platform/ids';
import { SESSION_SECRET } from '../platform/settings';
import { sendPlatformMail } from '../platform-mail/send';
import { memberAccessPut } from '../platform/member-access';
import { actsAsOwner, OWNER_KEY, type Actor, type Role } from '../platform/permissions';
import type { Scope } from '../store/keys';
import { ConditionFailed, type TransactOp } from '../store/store';
import { inviteMail } from './pages';
import { endInvite, JOB_INVITE_EXPIRY, SYSTEM, timerName } from './invite-end';
import { signInviteToken } from './invite-link';
import { ACCOUNT_OWNER_ID, type InviteRecord, type MemberRecord, type TeamRecord, type TeamState } from './records';
import { getEmailHolder, getInvite, getInviteWindow, getState, listInvites, listMembers, listTeams, teamWrites } from './repository';
import {
  areasOf,
  hasFreeSeat,
  INVITES_PER_HOUR,
  inviteExpiresAt,
  inviteWindowStart,
  isExpired,
  normalizeEmail,
  resendVerdict,
  roleChangeAllowed,
  seatLimit,
  seatsOf,
} from './rules';

/** What team services get: the tenant, its account, who acts and where links point. No HTTP. */
export type TeamCtx = Deps & { scope: Scope; account: Account; actor?: Actor; request: { baseUrl: string } };

/** A member's session token from the accept page lasts 30 days; removal or suspension ends it at once. */

export const actorOf = (ctx: TeamCtx) => ctx.actor ?? OWNER_KEY;

export const memberView = (m: MemberRecord) => ({
  _id: m._id,
  email: m.email,
  name: m.name,
  role: m.role,
  teamIds: m.teamIds,
  status: m.status,
  joinedAt: m.joinedAt,
});
export const inviteView = (i: InviteRecord) => ({ id: i._id, email: i.email, role: i.role, teamIds: i.teamIds, expiresAt: i.validUntil });
export const teamView = (t: TeamRecord) => ({ _id: t._id, name: t.name, areas: t.areas, createdAt: t.createdAt, updatedAt: t.updatedAt });

export const roleForbidden = () => forbidden('Only owners give the owner role or change an owner', { code: 'ROLE_FORBIDDEN' });
export const lastOwner = () => conflict('The store would have no owner left: make another member owner first', 'LAST_OWNER');
export const concurrent = () => conflict('The team changed while this request ran; try again', 'CONCURRENT_UPDATE');
const seatLimitError = (state: TeamState, account: Account) => {
  const seats = seatsOf(state, account.plan);
  return forbidden(`No free seat: ${seats.used} members and ${seats.pending} open invites use the ${seats.limit} seats of this plan`, {
    code: 'SEAT_LIMIT',
    details: seats,
  });
};
const HOUR_MS = 3_600_000;
function inviteRateLimited(now: Date, previous: number, current: number) {
  const retry = slidingRetryAfterSeconds(INVITES_PER_HOUR, previous, current, now.getTime(), HOUR_MS);
  return tooManyRequests(retry, `At most ${INVITES_PER_HOUR} invites an hour`, 'INVITE_RATE_LIMITED');
}

/**
 * The team's counters and the owner's member row, created on first use: the account's owner is
 * the first member, an owner, holding one seat.
 */
export async function ensureTeam(ctx: Pick<TeamCtx, 'store' | 'scope' | 'account'>): Promise<TeamState> {
  const state = await getState(ctx.store, ctx.scope);
  if (state) return state;
  const email = normalizeEmail(ctx.account.email);
  const owner: MemberRecord = {
    _id: ACCOUNT_OWNER_ID,
    email,
    name: ctx.account.name ?? null,
    role: 'owner',
    teamIds: [],
    status: 'active',
    joinedAt: ctx.account.createdAt,
    updatedAt: ctx.account.createdAt,
  };
  const initial: TeamState = { owners: 1, used: 1, pending: 0, seats: 1 };
  try {
    // Setting up is no change of the request's: it carries no activity entry.
    await ctx.store
      .forRequest({ companion: undefined })
      .transact([
        teamWrites.createState(ctx.scope, initial),
        teamWrites.putMember(ctx.scope, owner),
        teamWrites.claimEmail(ctx.scope, email, { kind: 'member', id: ACCOUNT_OWNER_ID }),
      ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
  return (await getState(ctx.store, ctx.scope))!;
}

export async function requireTeamIds(ctx: TeamCtx, teamIds: string[]): Promise<TeamRecord[]> {
  const teams = await listTeams(ctx.store, ctx.scope);
  teamIds.forEach((id, index) => {
    if (!teams.some((t) => t._id === id)) throw badRequest(`teamIds.${index}: team ${id} not found`, { field: `teamIds.${index}` });
  });
  return teams;
}

const grantOf = (member: MemberRecord, teams: TeamRecord[]) => ({
  memberId: member._id,
  email: member.email,
  role: member.role,
  areas: areasOf(teams, member.teamIds),
  status: member.status,
});

/** The account owner's row acts through keys, never through a member token: it needs no grant. */
export const grantWrites = (scope: Scope, member: MemberRecord, teams: TeamRecord[]): TransactOp[] =>
  member._id === ACCOUNT_OWNER_ID ? [] : [memberAccessPut(scope, grantOf(member, teams))];

export async function readTeam(ctx: TeamCtx) {
  const state = await ensureTeam(ctx);
  const [members, invites, teams] = await Promise.all([listMembers(ctx.store, ctx.scope), listInvites(ctx.store, ctx.scope), listTeams(ctx.store, ctx.scope)]);
  members.sort((a, b) => (a._id === ACCOUNT_OWNER_ID ? -1 : b._id === ACCOUNT_OWNER_ID ? 1 : a.joinedAt.localeCompare(b.joinedAt)));
  const now = ctx.clock.now();
  return {
    members: members.map(memberView),
    // An invite past its time is gone for the reader even before its timer has tidied it up.
    invites: invites.filter((i) => !isExpired(i, now)).map(inviteView),
    teams: teams.map(teamView),
    seats: seatsOf(state, ctx.account.plan),
  };
}

export async function readActivity(ctx: TeamCtx, query: { before?: string; limit: number }) {
  const page = await listActivity(ctx.store, ctx.scope, query);
  return { activity: page.entries, nextBefore: page.nextBefore };
}

async function sendInvite(ctx: TeamCtx, invite: InviteRecord): Promise<boolean> {
  const secret = await ctx.ports.secrets.get(SESSION_SECRET);
  const token = await signInviteToken(
    secret,
    { scope: ctx.scope, inviteId: invite._id, linkVersion: invite.linkVersion },
    new Date(invite.validUntil),
    ctx.clock.now(),
  );
  const link = `${ctx.request.baseUrl}/team/join?token=${encodeURIComponent(token)}`;
  // The invite stands either way; a refused mail is logged, counted and retried (platform-mail),
  // and the owner can resend it once a minute.
  return sendPlatformMail(ctx, 'invite', {
    to: [invite.email],
    ...inviteMail({ storeName: ctx.account.name ?? ctx.account.email, role: invite.role, link, expiresAt: invite.validUntil }),
  });
}

/**
 * Ends an open invite (accepted elsewhere, canceled, expired): out of the open ones, seat and email
 * freed, its timer removed.
 */
/** 409 when the email is on the team already; an open invite past its time is ended first. */
async function refuseHeldEmail(ctx: TeamCtx, email: string) {
  const holder = await getEmailHolder(ctx.store, ctx.scope, email);
  if (!holder) return;
  if (holder.kind === 'member') throw conflict(`${email} is already a member of this store`, 'ALREADY_MEMBER');
  const invite = await getInvite(ctx.store, ctx.scope, holder.id);
  if (invite && isExpired(invite, ctx.clock.now())) {
    try {
      await endInvite(ctx, ctx.scope, invite, 'expired', SYSTEM);
      return;
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error;
    }
  }
  throw conflict(`${email} already has an open invite`, 'ALREADY_INVITED');
}

export async function inviteMember(ctx: TeamCtx, input: { email: string; role: Role; teamIds?: string[] }) {
  const email = normalizeEmail(input.email);
  const teamIds = [...new Set(input.teamIds ?? [])];
  if (!roleChangeAllowed(actsAsOwner(actorOf(ctx)), undefined, input.role)) throw roleForbidden();
  const teams = await requireTeamIds(ctx, teamIds);
  const state = await ensureTeam(ctx);
  await refuseHeldEmail(ctx, email);
  if (!hasFreeSeat(state, ctx.account.plan)) throw seatLimitError(state, ctx.account);
  // A member sees only their teams' areas: with none, the dashboard would be an empty sidebar.
  if (input.role === 'member' && areasOf(teams, teamIds).length === 0) {
    throw badRequest(
      'This invite grants no area of the dashboard: a member sees only the areas of their teams. Add teamIds of a team with areas, or invite them as an admin',
      { code: 'INVITE_GRANTS_NOTHING', field: 'teamIds' },
    );
  }
  const now = ctx.clock.now();
  // A sliding hour (platform/sliding-window.ts): the previous hour's invites weigh in, so 20 at
  // the end of one hour and 20 more at the start of the next are not both admitted.
  const windowStart = inviteWindowStart(now).getTime();
  const window = new Date(windowStart).toISOString();
  const previous = (await getInviteWindow(ctx.store, ctx.scope, new Date(windowStart - HOUR_MS).toISOString()))?.count ?? 0;
  const current = (await getInviteWindow(ctx.store, ctx.scope, window))?.count ?? 0;
  const allowed = slidingAllowance(INVITES_PER_HOUR, previous, now.getTime(), HOUR_MS);
  if (current >= allowed) throw inviteRateLimited(now, previous, current);

  const invite: InviteRecord = {
    _id: objectId(ctx.clock),
    email,
    role: input.role,
    teamIds,
    validUntil: inviteExpiresAt(now).toISOString(),
    createdAt: now.toISOString(),
    sentAt: now.toISOString(),
    resends: 0,
    linkVersion: 1,
  };
  try {
    await ctx.store.transact([
      teamWrites.putInvite(ctx.scope, invite),
      teamWrites.claimEmail(ctx.scope, email, { kind: 'invite', id: invite._id }),
      teamWrites.moveState(ctx.scope, { pending: 1, seats: 1 }, { seatLimit: seatLimit(ctx.account.plan) }),
      teamWrites.countInvite(ctx.scope, window, allowed, Math.floor((windowStart + 2 * HOUR_MS) / 1000) + 3600),
      activityWrite(ctx, ctx.scope, {
        action: 'invite.created',
        target: { type: 'invite', id: invite._id, email },
        details: { role: invite.role, teamIds },
      }),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    // Another request won a race for the same email, the last seat or the hour's last invite.
    if (error.reasons[1] === 'ConditionalCheckFailed') await refuseHeldEmail(ctx, email);
    if (error.reasons[2] === 'ConditionalCheckFailed') throw seatLimitError((await getState(ctx.store, ctx.scope))!, ctx.account);
    if (error.reasons[3] === 'ConditionalCheckFailed') throw inviteRateLimited(now, previous, allowed);
    throw concurrent();
  }
  await ctx.ports.scheduler.schedule(timerName(ctx.scope, invite._id), new Date(invite.validUntil), {
    type: JOB_INVITE_EXPIRY,
    scope: ctx.scope,
    payload: { inviteId: invite._id },
  });
  return { invite: inviteView(invite), emailSent: await sendInvite(ctx, invite) };
}

async function requireOpenInvite(ctx: TeamCtx, id: string): Promise<InviteRecord> {
  const invite = await getInvite(ctx.store, ctx.scope, id);
  if (!invite) throw notFound('Invite');
  return invite;
}

export async function resendInvite(ctx: TeamCtx, id: string) {
  const invite = await requireOpenInvite(ctx, id);
  const now = ctx.clock.now();
  const verdict = resendVerdict(invite, now);
  if (!verdict.ok) {
    if (verdict.reason === 'expired') throw conflict('This invite has expired; invite the person again', 'INVITE_EXPIRED');
    if (verdict.reason === 'limit') throw new ApiError(429, 'An invite can be resent at most 5 times', { code: 'INVITE_RESEND_LIMIT' });
    throw tooManyRequests(verdict.retryAfterSeconds!, 'An invite can be resent once a minute', 'INVITE_RESEND_TOO_SOON');
  }
  const next: InviteRecord = {
    ...invite,
    validUntil: inviteExpiresAt(now).toISOString(),
    sentAt: now.toISOString(),
    resends: invite.resends + 1,
    linkVersion: invite.linkVersion + 1,
  };
  try {
    await ctx.store.transact([
      teamWrites.replaceInvite(ctx.scope, next, invite.linkVersion),
      activityWrite(ctx, ctx.scope, {
        action: 'invite.resent',
        target: { type: 'invite', id: invite._id, email: invite.email },
        details: { resends: next.resends, expiresAt: next.validUntil },
      }),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  await ctx.ports.scheduler.schedule(timerName(ctx.scope, invite._id), new Date(next.validUntil), {
    type: JOB_INVITE_EXPIRY,
    scope: ctx.scope,
    payload: { inviteId: invite._id },
  });
  return { invite: inviteView(next), emailSent: await sendInvite(ctx, next) };
}

export async function cancelInvite(ctx: TeamCtx, id: string) {
  const invite = await requireOpenInvite(ctx, id);
  try {
    await endInvite(ctx, ctx.scope, invite, 'canceled');
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  return { id: invite._id, canceled: true as const };
}

/** The invite's timer: ends it when its time has come (a resend moved the time: nothing to do). */
