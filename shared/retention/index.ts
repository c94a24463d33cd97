import { defineCapability } from '../platform/capability';
import { introYearlyConsumer, recoveryConsumer, recoveryMailConsumer } from './consumers';
import { retentionOperations } from './operations';
import { JOB_FINAL_ACTION, runFinalAction } from './recovery';
import { ports } from './ports';

/**
 * Subscription retention: failed-renewal recovery, save offers at cancel, intro pricing and the
 * yearly switch, with their reports. It extends the subscriber lifecycle (shared/subscriptions/)
 * through its service functions and the processor's port; see README.md.
 */
export const retention = defineCapability({
  name: 'retention',
  operations: retentionOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [recoveryConsumer, recoveryMailConsumer, introYearlyConsumer],
  ports,
  jobs: {
    [JOB_FINAL_ACTION]: async (job, deps) => {
      if (job.scope) await runFinalAction(deps, job.scope, String(job.payload.caseId));
    },
  },
});
