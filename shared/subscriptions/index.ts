import { defineCapability } from '../platform/capability';
import { subscriptionProcessorSyncConsumer, subscriptionTimersConsumer } from './consumers';
import { SUBSCRIPTION_JOB_HANDLERS } from './jobs';
import { subscriberOperations } from './operations';
import { subscriptionsPrivacy } from './privacy';

/** Subscribers and their lifecycle; the API function keeps its name `subscribers`. */
export const subscriptions = defineCapability({
  name: 'subscribers',
  build: {
    manifest: { url: import.meta.url, export: 'subscriptions' },
    operations: './operations#subscriberOperations',
    privacy: './privacy#subscriptionsPrivacy',
    jobs: './jobs#SUBSCRIPTION_JOB_HANDLERS',
    workers: {
      'subscription-timers': './consumers#subscriptionTimersConsumer',
      'subscription-processor-sync': './consumers#subscriptionProcessorSyncConsumer',
    },
    uses: { api: ['processor', 'subscriptionSaveOffers'], workers: { 'subscription-timers': ['processor'], 'subscription-processor-sync': ['processor'] } },
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: subscriberOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [subscriptionTimersConsumer, subscriptionProcessorSyncConsumer],
  jobs: SUBSCRIPTION_JOB_HANDLERS,
  privacy: subscriptionsPrivacy,
});
