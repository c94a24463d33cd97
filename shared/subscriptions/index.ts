import { defineCapability } from '../platform/capability';
import { subscriptionProcessorSyncConsumer, subscriptionTimersConsumer } from './consumers';
import { SUBSCRIPTION_JOB_HANDLERS } from './jobs';
import { subscriberOperations } from './operations';
import { subscriptionsPrivacy } from './privacy';

/** Subscribers and their lifecycle; the API function keeps its name `subscribers`. */
export const subscriptions = defineCapability({
  name: 'subscribers',
  operations: subscriberOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  consumers: [subscriptionTimersConsumer, subscriptionProcessorSyncConsumer],
  jobs: SUBSCRIPTION_JOB_HANDLERS,
  privacy: subscriptionsPrivacy,
});
