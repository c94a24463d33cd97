import { defineCapability } from '../platform/capability';
import { teamOperations } from './operations';
import { teamJobs } from './invite-end';

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
  needs: ['table', 'scheduler', 'email'],
  jobs: teamJobs,
});
