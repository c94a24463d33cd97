import { defineCapability } from '../platform/capability';
import { teamOperations } from './operations';
import { teamJobs } from './invite-end';
import { SESSION_SECRET } from '../platform/settings';

/** Team members, invites, teams with areas and the activity log; roles are enforced by the kernel. */
export const team = defineCapability({
  name: 'team',
  build: {
    manifest: { url: import.meta.url, export: 'team' },
    operations: './operations#teamOperations',
    jobs: './invite-end#teamJobs',
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: teamOperations,
  needs: ['table', 'queue', 'scheduler', 'email'],
  // Signs invite links and, on the public join page, members' sessions.
  settings: [SESSION_SECRET],
  jobs: teamJobs,
});
