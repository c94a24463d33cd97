import type { Area, Role } from '../platform/permissions';

export const TEAM_MEMBER = 'TEAM_MEMBER';
export const TEAM_INVITE = 'TEAM_INVITE';
export const TEAM_INVITE_ENDED = 'TEAM_INVITE_ENDED';
export const TEAM = 'TEAM';
export const TEAM_STATE = 'TEAM_STATE';
export const TEAM_INVITE_WINDOW = 'TEAM_INVITE_WINDOW';
export const TEAM_EMAIL = 'TEAM_EMAIL';

/** The account's owner is a member row too, created with the team; its id is fixed. */
export const ACCOUNT_OWNER_ID = 'owner';

export type MemberStatus = 'active' | 'suspended';

export interface MemberRecord {
  _id: string;
  email: string;
  name: string | null;
  role: Role;
  teamIds: string[];
  status: MemberStatus;
  joinedAt: string;
  updatedAt: string;
}

export interface InviteRecord {
  _id: string;
  email: string;
  role: Role;
  teamIds: string[];
  /** The invite's `expiresAt` (stored under another name: `expiresAt` is the table's TTL attribute). */
  validUntil: string;
  createdAt: string;
  /** When the last mail went out (first send or resend). */
  sentAt: string;
  resends: number;
  /** Bumped by each resend: only the newest link is honoured. */
  linkVersion: number;
}

export type InviteEnd = 'accepted' | 'canceled' | 'expired';

/** An invite that is no longer open, kept 30 days so its old links can say why they fail. */
export interface EndedInviteRecord extends InviteRecord {
  status: InviteEnd;
  endedAt: string;
}

export interface TeamRecord {
  _id: string;
  name: string;
  areas: Area[];
  createdAt: string;
  updatedAt: string;
}

/**
 * Counters of one store's team, updated in every transaction that changes them so their
 * conditions (a free seat, one owner left) hold under concurrent requests.
 * `seats` = `used` + `pending`.
 */
export interface TeamState {
  owners: number;
  used: number;
  pending: number;
  seats: number;
}

/** Which record holds an email on the team: one row per lower-cased email. */
export interface EmailHolder {
  kind: 'member' | 'invite';
  id: string;
}
