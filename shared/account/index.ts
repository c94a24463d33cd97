import { defineCapability } from '../platform/capability';
import { accountOperations } from './operations';

/** The caller's own account (`/users/me`). The tenant registry itself is kernel (platform/accounts.ts). */
export const account = defineCapability({
  name: 'account',
  build: {
    manifest: { url: import.meta.url, export: 'account' },
    operations: './operations#accountOperations',
    uses: { api: ['processor'] },
  },
  operations: accountOperations,
});
