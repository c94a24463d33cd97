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
  build: {
    manifest: { url: import.meta.url, export: 'retention' },
    operations: './operations#retentionOperations',
    jobs: './jobs#retentionJobs',
    workers: {
      'retention-recovery': './consumers#recoveryConsumer',
      'retention-recovery-mail': './consumers#recoveryMailConsumer',
      'retention-intro-yearly': './consumers#introYearlyConsumer',
    },
    ports: './ports#ports',
    uses: {
      api: ['processor', 'subscriptionSaveOffers'],
      jobs: ['processor', 'subscriptionSaveOffers'],
      ports: ['processor', 'subscriptionSaveOffers'],
      workers: {
        'retention-recovery': ['processor', 'subscriptionSaveOffers'],
        'retention-recovery-mail': ['processor', 'subscriptionSaveOffers'],
        'retention-intro-yearly': ['processor', 'subscriptionSaveOffers'],
      },
    },
    jobNeeds: ['table', 'queue', 'scheduler', 'encryption'],
  },
  operations: retentionOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [recoveryConsumer, recoveryMailConsumer, introYearlyConsumer],
  ports,
  jobs: retentionJobs,
});
