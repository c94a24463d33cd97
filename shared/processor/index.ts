import { defineCapability } from '../platform/capability';
import { processorOperations } from './operations';

/**
 * The payment processor: its port (port.ts, with the notification types) and the signed
 * notification ingress. Providers implement the port as adapters with their own manifest
 * (shared/adapters/processor-sandbox/).
 */
export const processor = defineCapability({
  name: 'processor',
  operations: processorOperations,
  needs: ['table', 'queue', 'scheduler'],
});
