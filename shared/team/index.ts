import { defineCapability } from '../platform/capability';
import { teamOperations } from './operations';
import { expireInviteJob, JOB_INVITE_EXPIRY } from './service';

/** Team members, invites, teams with areas and the activity log; roles are enforced by the kernel. */
export const team = defineCapability({
  name: 'team',
  operations: teamOperations,
  needs: ['table', 'scheduler', 'email'],
  jobs: { [JOB_INVITE_EXPIRY]: expireInviteJob },
});
