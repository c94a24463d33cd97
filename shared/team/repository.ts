import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import {
  TEAM,
  TEAM_EMAIL,
  TEAM_INVITE,
  TEAM_INVITE_ENDED,
  TEAM_INVITE_WINDOW,
  TEAM_MEMBER,
  TEAM_STATE,
  type EmailHolder,
  type EndedInviteRecord,
  type InviteRecord,
  type MemberRecord,
  type TeamRecord,
  type TeamState,
} from './records';

// Every team record lives in the tenant's scope (account and mode). Members, open invites and teams
// are each one partition, bounded by the plan's seats (members + open invites) and MAX_TEAMS, so
// reading a whole one is fine. Ended invites sit apart, with a 30-day TTL, so old links can say why
// they no longer work without the open-invite partition growing.

const STATE_ID = 'STATE';
const ENDED_RETENTION_SECONDS = 30 * 24 * 3600;

export const getState = async (store: Store, scope: Scope) =>
  toRecord<TeamState>(await store.get(keys.entity(scope, TEAM_STATE, STATE_ID), { consistent: true }));
export const getMember = async (store: Store, scope: Scope, id: string) => toRecord<MemberRecord>(await store.get(keys.entity(scope, TEAM_MEMBER, id)));
export const getInvite = async (store: Store, scope: Scope, id: string) => toRecord<InviteRecord>(await store.get(keys.entity(scope, TEAM_INVITE, id)));
export const getEndedInvite = async (store: Store, scope: Scope, id: string) =>
  toRecord<EndedInviteRecord>(await store.get(keys.entity(scope, TEAM_INVITE_ENDED, id)));
export const getTeam = async (store: Store, scope: Scope, id: string) => toRecord<TeamRecord>(await store.get(keys.entity(scope, TEAM, id)));
export const getEmailHolder = async (store: Store, scope: Scope, email: string) =>
  toRecord<EmailHolder>(await store.get(keys.unique(scope, TEAM_EMAIL, email)));
export const getInviteWindow = async (store: Store, scope: Scope, windowStart: string) =>
  toRecord<{ count: number }>(await store.get(keys.entity(scope, TEAM_INVITE_WINDOW, windowStart)));

const all = async <T>(store: Store, scope: Scope, type: string, ascending = true) =>
  (await store.queryAll({ pk: keys.collection(scope, type), ascending })).map((item) => toRecord<T>(item)!);

export const listMembers = (store: Store, scope: Scope) => all<MemberRecord>(store, scope, TEAM_MEMBER);
export const listInvites = (store: Store, scope: Scope) => all<InviteRecord>(store, scope, TEAM_INVITE);
export const listTeams = (store: Store, scope: Scope) => all<TeamRecord>(store, scope, TEAM);

const versioned = (field: string, value: unknown) => ({
  condition: `attribute_exists(PK) AND #v = :v`,
  names: { '#v': field },
  values: { ':v': value },
});

/** The writes of the team; the service puts them in one transaction with the activity entry. */
export const teamWrites = {
  createState: (scope: Scope, state: TeamState): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM_STATE, STATE_ID), 'TeamState', state),
    condition: 'attribute_not_exists(PK)',
  }),
  /**
   * Moves the counters. A move that takes a seat needs one free under `seatLimit`; one that
   * removes an owner needs another owner left. Fails with ConditionFailed otherwise.
   */
  moveState: (scope: Scope, delta: Partial<TeamState>, guard: { seatLimit?: number; ownersLeft?: boolean } = {}): TransactOp => {
    const conditions = ['attribute_exists(PK)'];
    const values: Record<string, unknown> = {};
    const names: Record<string, string> = {};
    if (guard.seatLimit !== undefined) {
      conditions.push('#seats < :seatLimit');
      names['#seats'] = 'seats';
      values[':seatLimit'] = guard.seatLimit;
    }
    if (guard.ownersLeft) {
      conditions.push('#owners > :one');
      names['#owners'] = 'owners';
      values[':one'] = 1;
    }
    const add = Object.fromEntries(Object.entries(delta).filter(([, v]) => v)) as Record<string, number>;
    if (Object.keys(add).length === 0)
      return {
        check: keys.entity(scope, TEAM_STATE, STATE_ID),
        condition: conditions.join(' AND '),
        names: Object.keys(names).length ? names : undefined,
        values: Object.keys(values).length ? values : undefined,
      };
    return {
      update: keys.entity(scope, TEAM_STATE, STATE_ID),
      set: {},
      add,
      condition: conditions.join(' AND '),
      names,
      values: Object.keys(values).length ? values : undefined,
    };
  },
  putMember: (scope: Scope, member: MemberRecord): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM_MEMBER, member._id), 'TeamMember', member),
    condition: 'attribute_not_exists(PK)',
  }),
  replaceMember: (scope: Scope, member: MemberRecord, readUpdatedAt: string): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM_MEMBER, member._id), 'TeamMember', member),
    ...versioned('updatedAt', readUpdatedAt),
  }),
  checkMember: (scope: Scope, member: MemberRecord): TransactOp => ({
    check: keys.entity(scope, TEAM_MEMBER, member._id),
    ...versioned('updatedAt', member.updatedAt),
  }),
  deleteMember: (scope: Scope, member: MemberRecord): TransactOp => ({
    delete: keys.entity(scope, TEAM_MEMBER, member._id),
    ...versioned('updatedAt', member.updatedAt),
  }),
  putInvite: (scope: Scope, invite: InviteRecord): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM_INVITE, invite._id), 'TeamInvite', invite),
    condition: 'attribute_not_exists(PK)',
  }),
  replaceInvite: (scope: Scope, invite: InviteRecord, readVersion: number): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM_INVITE, invite._id), 'TeamInvite', invite),
    ...versioned('linkVersion', readVersion),
  }),
  /** Ends an open invite: gone from the open ones, kept 30 days as ended. */
  endInvite: (scope: Scope, invite: InviteRecord, status: EndedInviteRecord['status'], endedAt: Date): TransactOp[] => [
    { delete: keys.entity(scope, TEAM_INVITE, invite._id), ...versioned('linkVersion', invite.linkVersion) },
    {
      put: toItem(
        keys.entity(scope, TEAM_INVITE_ENDED, invite._id),
        'TeamInviteEnded',
        { ...invite, status, endedAt: endedAt.toISOString() },
        {
          expiresAt: Math.floor(endedAt.getTime() / 1000) + ENDED_RETENTION_SECONDS,
        },
      ),
    },
  ],
  claimEmail: (scope: Scope, email: string, holder: EmailHolder): TransactOp => ({
    put: toItem(keys.unique(scope, TEAM_EMAIL, email), 'TeamEmail', holder),
    condition: 'attribute_not_exists(PK)',
  }),
  /** Hands the email from its invite to the member who accepted it. */
  moveEmail: (scope: Scope, email: string, from: EmailHolder, to: EmailHolder): TransactOp => ({
    put: toItem(keys.unique(scope, TEAM_EMAIL, email), 'TeamEmail', to),
    condition: '#id = :id',
    names: { '#id': 'id' },
    values: { ':id': from.id },
  }),
  releaseEmail: (scope: Scope, email: string, holderId: string): TransactOp => ({
    delete: keys.unique(scope, TEAM_EMAIL, email),
    condition: '#id = :id',
    names: { '#id': 'id' },
    values: { ':id': holderId },
  }),
  /** Counts one invite in the current hour; refused once `max` are counted. */
  countInvite: (scope: Scope, windowStart: string, max: number, expiresAt: number): TransactOp => ({
    update: keys.entity(scope, TEAM_INVITE_WINDOW, windowStart),
    set: { expiresAt },
    add: { count: 1 },
    condition: 'attribute_not_exists(#count) OR #count < :max',
    names: { '#count': 'count' },
    values: { ':max': max },
  }),
  putTeam: (scope: Scope, team: TeamRecord): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM, team._id), 'Team', team),
    condition: 'attribute_not_exists(PK)',
  }),
  replaceTeam: (scope: Scope, team: TeamRecord, readUpdatedAt: string): TransactOp => ({
    put: toItem(keys.entity(scope, TEAM, team._id), 'Team', team),
    ...versioned('updatedAt', readUpdatedAt),
  }),
  deleteTeam: (scope: Scope, team: TeamRecord): TransactOp => ({ delete: keys.entity(scope, TEAM, team._id), ...versioned('updatedAt', team.updatedAt) }),
};
