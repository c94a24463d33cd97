import { activityWrite } from '../platform/activity';
import { badRequest, notFound } from '../platform/errors';
import { objectId } from '../platform/ids';
import { memberAccessDelete } from '../platform/member-access';
import { actsAsOwner, type Role } from '../platform/permissions';
import { ConditionFailed, type TransactOp } from '../store/store';
import type { MemberRecord, MemberStatus, TeamRecord } from './records';
import { getMember, getTeam, listInvites, listMembers, listTeams, teamWrites } from './repository';
import { MAX_TEAMS, ownerDelta } from './rules';
import type { Area } from '../platform/permissions';
import { type TeamCtx, actorOf, concurrent, ensureTeam, grantWrites, lastOwner, memberView, requireTeamIds, roleForbidden, teamView } from './service';

/** Changing members (role, teams, status, removal) and the teams that grant them areas. */

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
  const next: MemberRecord = {
    ...member,
    role: change.role ?? member.role,
    status: change.status ?? member.status,
    teamIds,
    updatedAt: ctx.clock.now().toISOString(),
  };
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
      activityWrite(ctx, ctx.scope, { action: 'member.updated', target: { type: 'member', id: member._id, email: member.email }, details: changed }),
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
      activityWrite(ctx, ctx.scope, {
        action: 'member.removed',
        target: { type: 'member', id: member._id, email: member.email },
        details: { role: member.role },
      }),
    ]);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    if (delta < 0 && error.reasons[1] === 'ConditionalCheckFailed') throw lastOwner();
    throw concurrent();
  }
  return { _id: member._id, deleted: true as const };
}

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
    activityWrite(ctx, ctx.scope, { action: 'team.created', target: { type: 'team', id: team._id }, details: { name: team.name, areas: team.areas } }),
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
  const next: TeamRecord = {
    ...team,
    name: change.name?.trim() ?? team.name,
    areas: change.areas ? [...new Set(change.areas)] : team.areas,
    updatedAt: ctx.clock.now().toISOString(),
  };
  if (next.name === team.name && JSON.stringify(next.areas) === JSON.stringify(team.areas)) return teamView(team);
  const teamsAfter = (await listTeams(ctx.store, ctx.scope)).map((t) => (t._id === id ? next : t));
  const regrants = JSON.stringify(next.areas) === JSON.stringify(team.areas) ? [] : await regrantTeamMembers(ctx, id, teamsAfter, false);
  try {
    await ctx.store.transact([
      teamWrites.replaceTeam(ctx.scope, next, team.updatedAt),
      ...regrants,
      activityWrite(ctx, ctx.scope, {
        action: 'team.updated',
        target: { type: 'team', id },
        details: { name: { from: team.name, to: next.name }, areas: { from: team.areas, to: next.areas } },
      }),
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
      activityWrite(ctx, ctx.scope, { action: 'team.deleted', target: { type: 'team', id }, details: { name: team.name } }),
    ]);
  } catch (error) {
    if (error instanceof ConditionFailed) throw concurrent();
    throw error;
  }
  return { _id: id, deleted: true as const };
}
