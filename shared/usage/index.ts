import { defineCapability } from '../platform/capability';
import { usageFoldConsumer, usagePeriodTimerConsumer } from './consumers';
import { usageOperations } from './operations';
import { usageJobs } from './jobs';

/** Usage and seat billing: meters, usage reports, seats, and the close and charge of each period. */
export const usage = defineCapability({
  name: 'usage',
  build: {
    manifest: { url: import.meta.url, export: 'usage' },
    operations: './operations#usageOperations',
    jobs: './jobs#usageJobs',
    workers: { 'usage-period-timers': './consumers#usagePeriodTimerConsumer', 'usage-fold': './consumers#usageFoldConsumer' },
    uses: { jobs: ['processor'] },
    jobNeeds: ['table', 'queue', 'scheduler', 'encryption'],
  },
  operations: usageOperations,
  // The processor's keys (KMS) are read by the timers' charges only (period-close.ts): jobNeeds.
  needs: ['table', 'queue', 'scheduler'],
  consumers: [usagePeriodTimerConsumer, usageFoldConsumer],
  jobs: usageJobs,
});
