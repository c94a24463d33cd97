import { defineCapability } from '../platform/capability';
import { auditOperations } from './operations';

/**
 * The audit log read back: the kernel writes an entry with every API write (shared/platform/
 * activity.ts, in the write's own transaction); this capability lists them with filters.
 */
export const audit = defineCapability({
  name: 'audit',
  operations: auditOperations,
  needs: ['table'],
});
