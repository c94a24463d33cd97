import { activityWrite, type ActivityActor } from '../platform/activity';
import type { JobHandler } from '../platform/capability';
import type { Deps } from '../platform/context';
import type { Job } from '../platform/ports';
import type { Scope } from '../store/keys';
import { ConditionFailed } from '../store/store';
import type { InviteEnd, InviteRecord } from './records';
import { getInvite, teamWrites } from './repository';
import { isExpired } from './rules';

/**
 * How an open invite ends (canceled or expired), and the timer job that expires it. Apart from
 * service.ts, which mails invites: the jobs function that runs the timer gets its AWS clients from
 * the `ports.<name>` its code names, and ending an invite mails no one.
 */

export const JOB_INVITE_EXPIRY = 'team.invite-expiry';
export const SYSTEM: ActivityActor = { type: 'system' };
export const timerName = (scope: Scope, inviteId: string) => `team-invite-${scope.accountId}-${scope.mode}-${inviteId}`;

export async function endInvite(deps: Deps, scope: Scope, invite: InviteRecord, status: Exclude<InviteEnd, 'accepted'>, actor?: ActivityActor) {
  const now = deps.clock.now();
  await deps.store.transact([
    ...teamWrites.endInvite(scope, invite, status, now),
    teamWrites.releaseEmail(scope, invite.email, invite._id),
    teamWrites.moveState(scope, { pending: -1, seats: -1 }),
    activityWrite(deps, scope, { actor, action: `invite.${status}`, target: { type: 'invite', id: invite._id, email: invite.email } }),
  ]);
  await deps.ports.scheduler.cancel(timerName(scope, invite._id));
}

export async function expireInviteJob(job: Job, deps: Deps) {
  if (!job.scope || typeof job.payload.inviteId !== 'string') return;
  const invite = await getInvite(deps.store, job.scope, job.payload.inviteId);
  if (!invite || !isExpired(invite, deps.clock.now())) return;
  try {
    await endInvite(deps, job.scope, invite, 'expired', SYSTEM);
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
  }
}

/** The team's timers (the manifest's `jobs`), in a module of their own so their function bundles no operations. */
export const teamJobs: Record<string, JobHandler> = { [JOB_INVITE_EXPIRY]: expireInviteJob };
