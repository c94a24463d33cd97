import { defineCapability } from '../platform/capability';
import { processorPortFactory } from './adapter';
import { PROCESSOR_CONTROL_ROUTES } from './control';
import { PROCESSOR_JOB_HANDLERS } from './jobs';
import { processorOperations } from './operations';

/** The payment processor: its port, the signed-notification ingress, and the sandbox provider. */
export const processor = defineCapability({
  name: 'processor',
  operations: processorOperations,
  needs: ['table', 'queue', 'scheduler'],
  jobs: PROCESSOR_JOB_HANDLERS,
  controlRoutes: PROCESSOR_CONTROL_ROUTES,
  ports: { processor: processorPortFactory },
});
