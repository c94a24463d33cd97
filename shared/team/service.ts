import { activityWrite, listActivity } from '../platform/activity';
import type { Account, Deps } from '../platform/context';
import { ApiError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../platform/errors';
import { slidingAllowance, slidingRetryAfterSeconds } from '../platform/sliding-window';
import { objectId } from '../platform/ids';
import { SESSION_SECRET } from '../platform/settings';
import { sendPlatformMail } from '../platform-mail/send';
import { memberAccessDelete, memberAccessPut } from '../platform/member-access';
import { actsAsOwner, OWNER_KEY, type Actor, type Role } from '../platform/permissions';
import type { Scope } from '../store/keys';
import { ConditionFailed, withoutWriteCompanion, type TransactOp } from '../store/store';
import { inviteMail } from './pages';
import { endInvite, JOB_INVITE_EXPIRY, SYSTEM, timerName } from './invite-end';
import { issueSignInLink } from '../dashboard/sign-in-link';
import { signInviteToken, verifyInviteToken } from './invite-link';
import { ACCOUNT_OWNER_ID, type InviteEnd, type InviteRecord, type MemberRecord, type MemberStatus, type TeamRecord, type TeamState } from './records';
import {
  getEmailHolder,
  getEndedInvite,
  getInvite,
  getInviteWindow,
  getMember,
  getState,
  getTeam,
  listInvites,
  listMembers,
  listTeams,
  teamWrites,
} from './repository';
import {
  areasOf,
  countsAsOwner,
  hasFreeSeat,
  INVITES_PER_HOUR,
  inviteExpiresAt,
  inviteWindowStart,
  isExpired,
  MAX_TEAMS,
  normalizeEmail,
  ownerDelta,
  resendVerdict,
  roleChangeAllowed,
  seatLimit,
  seatsOf,
} from './rules';
import type { Area } from '../platform/permissions';

/** What team services get: the tenant, its account, who acts and where links point. No HTTP. */
export type TeamCtx = Deps & { scope: Scope; account: Account; actor?: Actor; request: { baseUrl: string } };

/** A member's session token from the accept page lasts 30 days; removal or suspension ends it at once. */

const actorOf = (ctx: TeamCtx) => ctx.actor ?? OWNER_KEY;

// ---- views ----

export const memberView = (m: MemberRecord) => ({ _id: m._id, email: m.email, name: m.name, role: m.role, teamIds: m.teamIds, status: m.status, joinedAt: m.joinedAt });
export const inviteView = (i: InviteRecord) => ({ id: i._id, email: i.email, role: i.role, teamIds: i.teamIds, expiresAt: i.validUntil });
export const teamView = (t: TeamRecord) => ({ _id: t._id, name: t.name, areas: t.areas, createdAt: t.createdAt, updatedAt: t.updatedAt });

// ---- errors ----

const roleForbidden = () => forbidden('Only owners give the owner role or change an owner', { code: 'ROLE_FORBIDDEN' });
const lastOwner = () => conflict('The store would have no owner left: make another member owner first', 'LAST_OWNER');
const concurrent = () => conflict('The team changed while this request ran; try again', 'CONCURRENT_UPDATE');
const seatLimitError = (state: TeamState, account: Account) => {
  const seats = seatsOf(state, account.plan);
  return forbidden(`No free seat: ${seats.used} members and ${seats.pending} open invites use the ${seats.limit} seats of this plan`, { code: 'SEAT_LIMIT', details: seats });
};
const HOUR_MS = 3_600_000;
function inviteRateLimited(now: Date, previous: number, current: number) {
  const retry = slidingRetryAfterSeconds(INVITES_PER_HOUR, previous, current, now.getTime(), HOUR_MS);
  return tooManyRequests(retry, `At most ${INVITES_PER_HOUR} invites an hour`, 'INVITE_RATE_LIMITED');
}

// ---- the team's counters and the owner row ----

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
    await withoutWriteCompanion(() =>
      ctx.store.transact([
        teamWrites.createState(ctx.scope, initial),
        teamWrites.putMember(ctx.scope, owner),
        teamWrites.claimEmail(ctx.scope, email, { kind: 'member', id: ACCOUNT_OWNER_ID }),
      ]),
    );
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
  return (await getState(ctx.store, ctx.scope))!;
}

async function requireTeamIds(ctx: TeamCtx, teamIds: string[]): Promise<TeamRecord[]> {
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
const grantWrites = (scope: Scope, member: MemberRecord, teams: TeamRecord[]): TransactOp[] =>
  member._id === ACCOUNT_OWNER_ID ? [] : [memberAccessPut(scope, grantOf(member, teams))];

// ---- reading ----

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

// ---- invites ----

async function sendInvite(ctx: TeamCtx, invite: InviteRecord): Promise<boolean> {
  const secret = await ctx.ports.secrets.get(SESSION_SECRET);
  const token = await signInviteToken(secret, { scope: ctx.scope, inviteId: invite._id, linkVersion: invite.linkVersion }, new Date(invite.validUntil), ctx.clock.now());
  const link = `${ctx.request.baseUrl}/team/join?token=${encodeURIComponent(token)}`;
  // The invite stands either way; a refused mail is logged, counted and retried (platform-mail),
  // and the owner can resend it once a minute.
  return sendPlatformMail(ctx, 'invite', { to: [invite.email], ...inviteMail({ storeName: ctx.account.name ?? ctx.account.email, role: invite.role, link, expiresAt: invite.validUntil }) });
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
    throw badRequest('This invite grants no area of the dashboard: a member sees only the areas of their teams. Add teamIds of a team with areas, or invite them as an admin', { code: 'INVITE_GRANTS_NOTHING', field: 'teamIds' });
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
      activityWrite(ctx.scope, ctx.clock, { action: 'invite.created', target: { type: 'invite', id: invite._id, email }, details: { role: invite.role, teamIds } }),
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
      activityWrite(ctx.scope, ctx.clock, { action: 'invite.resent', target: { type: 'invite', id: invite._id, email: invite.email }, details: { resends: next.resends, expiresAt: next.validUntil } }),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  await ctx.ports.scheduler.schedule(timerName(ctx.scope, invite._id), new Date(next.validUntil), { type: JOB_INVITE_EXPIRY, scope: ctx.scope, payload: { inviteId: invite._id } });
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
// ---- accepting (the public page) ----

export type JoinCheck =
  | { ok: true; scope: Scope; invite: InviteRecord }
  | { ok: false; reason: 'expired' | 'canceled' | 'accepted' | 'replaced' | 'invalid' | 'disabled' };

export async function checkJoinToken(deps: Deps, token: string): Promise<JoinCheck> {
  const now = deps.clock.now();
  const verified = await verifyInviteToken(await deps.ports.secrets.get(SESSION_SECRET), token, now);
  if (!verified.ok) return { ok: false, reason: verified.reason };
  const { scope, inviteId, linkVersion } = verified.claims;
  const invite = await getInvite(deps.store, scope, inviteId);
  if (!invite) {
    const ended = await getEndedInvite(deps.store, scope, inviteId);
    return { ok: false, reason: ended?.status ?? 'invalid' };
  }
  if (invite.linkVersion !== linkVersion) return { ok: false, reason: 'replaced' };
  if (isExpired(invite, now)) return { ok: false, reason: 'expired' };
  return { ok: true, scope, invite };
}

/** Accepts an invite: the member joins with the invited role and teams and gets a session token. */
/**
 * Accepts an invite: the member, the grant, the activity entry in one transaction; then a one-time
 * dashboard sign-in link for the new member (shared/dashboard/sign-in-link.ts), which the accept
 * page redirects to, so the person lands signed in to the dashboard.
 */
export async function acceptInvite(deps: Deps, token: string, name: string | undefined, baseUrl: string): Promise<JoinCheck | { ok: true; member: MemberRecord; signInUrl: string }> {
  const check = await checkJoinToken(deps, token);
  if (!check.ok) return check;
  const { scope, invite } = check;
  const now = deps.clock.now();
  const teams = await listTeams(deps.store, scope);
  const member: MemberRecord = {
    _id: objectId(deps.clock),
    email: invite.email,
    name: name?.trim() ? name.trim().slice(0, 120) : null,
    role: invite.role,
    // A team deleted since the invite was sent is simply not joined.
    teamIds: invite.teamIds.filter((id) => teams.some((t) => t._id === id)),
    status: 'active',
    joinedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  try {
    await deps.store.transact([
      ...teamWrites.endInvite(scope, invite, 'accepted', now),
      teamWrites.putMember(scope, member),
      teamWrites.moveEmail(scope, invite.email, { kind: 'invite', id: invite._id }, { kind: 'member', id: member._id }),
      teamWrites.moveState(scope, { used: 1, pending: -1, owners: countsAsOwner(member) ? 1 : 0 }),
      ...grantWrites(scope, member, teams),
      activityWrite(scope, deps.clock, {
        actor: { type: 'member', memberId: member._id, email: member.email },
        action: 'invite.accepted',
        target: { type: 'member', id: member._id, email: member.email },
        details: { inviteId: invite._id, role: member.role, teamIds: member.teamIds },
      }),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    // Canceled, resent or accepted in the meantime: say what it is now.
    return checkJoinToken(deps, token);
  }
  await deps.ports.scheduler.cancel(timerName(scope, invite._id));
  return { ok: true, member, signInUrl: await issueSignInLink(deps, member.email, baseUrl) };
}

// ---- members ----

async function requireMember(ctx: TeamCtx, id: string) {
  const member = await getMember(ctx.store, ctx.scope, id);
  if (!member) throw notFound('Member');
  return member;
}

/** Removing an owner needs another active owner: checked up front for a clear answer, and by the counter's condition. */
async function refuseLastOwner(ctx: TeamCtx, delta: number) {
  if (delta >= 0) return;
  const state = await ensureTeam(ctx);
  if (state.owners <= 1) throw lastOwner();
}

export async function updateMember(ctx: TeamCtx, id: string, change: { role?: Role; teamIds?: string[]; status?: MemberStatus }) {
  await ensureTeam(ctx);
  const member = await requireMember(ctx, id);
  const touchesOwner = member.role === 'owner' || change.role === 'owner';
  if (touchesOwner && !actsAsOwner(actorOf(ctx))) throw roleForbidden();
  const teamIds = change.teamIds ? [...new Set(change.teamIds)] : member.teamIds;
  const teams = await requireTeamIds(ctx, change.teamIds ? teamIds : []);
  const next: MemberRecord = { ...member, role: change.role ?? member.role, status: change.status ?? member.status, teamIds, updatedAt: ctx.clock.now().toISOString() };
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['role', 'status', 'teamIds'] as const) {
    if (JSON.stringify(member[field]) !== JSON.stringify(next[field])) changed[field] = { from: member[field], to: next[field] };
  }
  if (Object.keys(changed).length === 0) return memberView(member);
  const delta = ownerDelta(member, next);
  await refuseLastOwner(ctx, delta);
  try {
    await ctx.store.transact([
      teamWrites.replaceMember(ctx.scope, next, member.updatedAt),
      ...(delta ? [teamWrites.moveState(ctx.scope, { owners: delta }, { ownersLeft: delta < 0 })] : []),
      ...grantWrites(ctx.scope, next, teams),
      activityWrite(ctx.scope, ctx.clock, { action: 'member.updated', target: { type: 'member', id: member._id, email: member.email }, details: changed }),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (delta < 0 && error.reasons[1] === 'ConditionalCheckFailed') throw lastOwner();
    throw concurrent();
  }
  return memberView(next);
}

export async function removeMember(ctx: TeamCtx, id: string) {
  await ensureTeam(ctx);
  const member = await requireMember(ctx, id);
  if (member.role === 'owner' && !actsAsOwner(actorOf(ctx))) throw roleForbidden();
  const delta = ownerDelta(member, undefined);
  await refuseLastOwner(ctx, delta);
  try {
    await ctx.store.transact([
      teamWrites.deleteMember(ctx.scope, member),
      teamWrites.moveState(ctx.scope, { used: -1, seats: -1, owners: delta }, { ownersLeft: delta < 0 }),
      teamWrites.releaseEmail(ctx.scope, member.email, member._id),
      memberAccessDelete(ctx.scope, member._id),
      activityWrite(ctx.scope, ctx.clock, { action: 'member.removed', target: { type: 'member', id: member._id, email: member.email }, details: { role: member.role } }),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (delta < 0 && error.reasons[1] === 'ConditionalCheckFailed') throw lastOwner();
    throw concurrent();
  }
  return { _id: member._id, deleted: true as const };
}

// ---- teams ----

async function requireTeam(ctx: TeamCtx, id: string) {
  const team = await getTeam(ctx.store, ctx.scope, id);
  if (!team) throw notFound('Team');
  return team;
}

export async function createTeam(ctx: TeamCtx, input: { name: string; areas: Area[] }) {
  const teams = await listTeams(ctx.store, ctx.scope);
  if (teams.length >= MAX_TEAMS) throw badRequest(`A store has at most ${MAX_TEAMS} teams`, { code: 'TEAM_LIMIT' });
  const now = ctx.clock.now().toISOString();
  const team: TeamRecord = { _id: objectId(ctx.clock), name: input.name.trim(), areas: [...new Set(input.areas)], createdAt: now, updatedAt: now };
  await ctx.store.transact([
    teamWrites.putTeam(ctx.scope, team),
    activityWrite(ctx.scope, ctx.clock, { action: 'team.created', target: { type: 'team', id: team._id }, details: { name: team.name, areas: team.areas } }),
  ]);
  return teamView(team);
}

/**
 * The grants of the members in `teamId` after its change, each checked against the member it was
 * computed from (members are bounded by the seats, so this fits one transaction).
 */
async function regrantTeamMembers(ctx: TeamCtx, teamId: string, teamsAfter: TeamRecord[], dropTeam: boolean): Promise<TransactOp[]> {
  const members = (await listMembers(ctx.store, ctx.scope)).filter((m) => m.teamIds.includes(teamId));
  return members.flatMap((member) => {
    if (!dropTeam) return [teamWrites.checkMember(ctx.scope, member), ...grantWrites(ctx.scope, member, teamsAfter)];
    const next = { ...member, teamIds: member.teamIds.filter((id) => id !== teamId), updatedAt: ctx.clock.now().toISOString() };
    return [teamWrites.replaceMember(ctx.scope, next, member.updatedAt), ...grantWrites(ctx.scope, next, teamsAfter)];
  });
}

export async function updateTeam(ctx: TeamCtx, id: string, change: { name?: string; areas?: Area[] }) {
  const team = await requireTeam(ctx, id);
  const next: TeamRecord = { ...team, name: change.name?.trim() ?? team.name, areas: change.areas ? [...new Set(change.areas)] : team.areas, updatedAt: ctx.clock.now().toISOString() };
  if (next.name === team.name && JSON.stringify(next.areas) === JSON.stringify(team.areas)) return teamView(team);
  const teamsAfter = (await listTeams(ctx.store, ctx.scope)).map((t) => (t._id === id ? next : t));
  const regrants = JSON.stringify(next.areas) === JSON.stringify(team.areas) ? [] : await regrantTeamMembers(ctx, id, teamsAfter, false);
  try {
    await ctx.store.transact([
      teamWrites.replaceTeam(ctx.scope, next, team.updatedAt),
      ...regrants,
      activityWrite(ctx.scope, ctx.clock, { action: 'team.updated', target: { type: 'team', id }, details: { name: { from: team.name, to: next.name }, areas: { from: team.areas, to: next.areas } } }),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  return teamView(next);
}

export async function deleteTeam(ctx: TeamCtx, id: string) {
  const team = await requireTeam(ctx, id);
  const teamsAfter = (await listTeams(ctx.store, ctx.scope)).filter((t) => t._id !== id);
  const regrants = await regrantTeamMembers(ctx, id, teamsAfter, true);
  // Open invites to the team will join the person to the other teams only.
  const invites = (await listInvites(ctx.store, ctx.scope)).filter((i) => i.teamIds.includes(id));
  try {
    await ctx.store.transact([
      teamWrites.deleteTeam(ctx.scope, team),
      ...regrants,
      ...invites.map((i) => teamWrites.replaceInvite(ctx.scope, { ...i, teamIds: i.teamIds.filter((t) => t !== id) }, i.linkVersion)),
      activityWrite(ctx.scope, ctx.clock, { action: 'team.deleted', target: { type: 'team', id }, details: { name: team.name } }),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  return { _id: id, deleted: true as const };
}
