import { defineCapability } from '../../platform/capability';
import { SANDBOX_CONTROL_ROUTES } from './control';
import { SANDBOX_JOB_HANDLERS } from './jobs';
import { sandboxOperations } from './operations';
import { ports } from './ports';
import { SANDBOX_SIGNING_SECRET } from './signing';

/**
 * The sandbox payment processor, as a provider of the processor capability's port: the port
 * factory, its hosted checkout page (served by the processor's API function, so the deployed
 * resources are those of one processor function), the jobs that deliver its notifications and
 * renew memberships, and the local control routes that act as buyer or bank in tests.
 */
export const processorSandbox = defineCapability({
  name: 'processor-sandbox',
  build: {
    manifest: { url: import.meta.url, export: 'processorSandbox' },
    operations: './operations#sandboxOperations',
    jobs: './jobs#SANDBOX_JOB_HANDLERS',
    ports: './ports#ports',
    uses: { api: ['processor', 'processorSandbox'], jobs: ['processorSandbox'], ports: ['processor', 'processorSandbox'] },
    jobNeeds: ['table', 'queue', 'scheduler', 'encryption'],
  },
  apiFunction: 'processor',
  operations: sandboxOperations,
  needs: ['table', 'queue', 'scheduler'],
  // The ingress (on the processor's function) verifies with it; the delivery job signs with it.
  settings: [SANDBOX_SIGNING_SECRET],
  jobSettings: [SANDBOX_SIGNING_SECRET],
  jobs: SANDBOX_JOB_HANDLERS,
  controlRoutes: SANDBOX_CONTROL_ROUTES,
  ports,
});
