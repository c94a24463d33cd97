import { activityWrite } from '../platform/activity';
import type { Deps } from '../platform/context';
import { objectId } from '../platform/ids';
import { SESSION_SECRET } from '../platform/settings';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import { timerName } from './invite-end';
import { issueSignInLink } from '../dashboard/sign-in-link';
import { verifyInviteToken } from './invite-link';
import type { InviteRecord, MemberRecord } from './records';
import { grantWrites } from './service';
import { getEndedInvite, getInvite, listTeams, teamWrites } from './repository';
import { countsAsOwner, isExpired } from './rules';

/** Accepting an invite on the public page: the token checked, the member joined, a sign-in link. */

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
export async function acceptInvite(
  deps: Deps,
  token: string,
  name: string | undefined,
  baseUrl: string,
): Promise<JoinCheck | { ok: true; member: MemberRecord; signInUrl: string }> {
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
      activityWrite(deps, scope, {
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
