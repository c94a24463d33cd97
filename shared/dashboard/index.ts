import { defineCapability } from '../platform/capability';
import { dashboardOperations } from './operations';
import { SESSION_SECRET } from '../platform/settings';

/**
 * The seller dashboard's server side: magic-link sign-in issuing the API's session tokens (one per
 * store and mode the person reaches), sign-out, and API key management. The app itself is static
 * (dashboard/ at the repository root), served by the local runtime and by CloudFront in AWS.
 */
export const dashboard = defineCapability({
  name: 'dashboard',
  build: {
    manifest: { url: import.meta.url, export: 'dashboard' },
    operations: './operations#dashboardOperations',
  },
  operations: dashboardOperations,
  needs: ['table', 'queue', 'email'],
  // Signs sessions on its public sign-in routes (which no key authenticates).
  settings: [SESSION_SECRET],
});
