import { defineCapability } from '../platform/capability';
import { introYearlyConsumer, recoveryConsumer, recoveryMailConsumer } from './consumers';
import { retentionOperations } from './operations';
import { retentionJobs } from './jobs';
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
  jobs: retentionJobs,
});
