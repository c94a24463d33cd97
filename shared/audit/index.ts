import { defineCapability } from '../platform/capability';
import { auditOperations } from './operations';

/**
 * The audit log read back: the kernel writes an entry with every API write (shared/platform/
 * activity.ts, in the write's own transaction); this capability lists them with filters. Served
 * by the team's function, which already reads the same log (/team/activity): one function less in
 * the API stack, whose CloudFormation resources are near their limit.
 */
export const audit = defineCapability({
  name: 'audit',
  build: {
    manifest: { url: import.meta.url, export: 'audit' },
    operations: './operations#auditOperations',
  },
  apiFunction: 'team',
  operations: auditOperations,
  needs: ['table'],
});
