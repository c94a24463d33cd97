import { defineCapability } from '../platform/capability';
import { BAN_HIDE_EVENT, THREAD_DELETED_EVENT } from './community/service';
import { communityCleanupConsumer, memberAreaConsumer, memberOrderConsumer, memberSubscriptionConsumer, membershipResyncConsumer } from './consumers';
import { allMembershipOperations } from './operations';
import { NOTIFY_EVENT } from './posts/notify';
import { RESYNC_EVENT } from './service';
import { membershipJobs, notifyQueue, postNotifyConsumer } from './workers';
import { membershipsPrivacy } from './privacy';

/** Memberships: members derived from subscriptions and sales, member events, members-only posts with notification, community, member area. */
export const memberships = defineCapability({
  name: 'memberships',
  build: {
    manifest: { url: import.meta.url, export: 'memberships' },
    operations: './operations#allMembershipOperations',
    privacy: './privacy#membershipsPrivacy',
    jobs: './workers#membershipJobs',
    workers: {
      'memberships-subscribers': './consumers#memberSubscriptionConsumer',
      'memberships-orders': './consumers#memberOrderConsumer',
      'memberships-resync': './consumers#membershipResyncConsumer',
      'memberships-post-notify': './workers#postNotifyConsumer',
      'memberships-member-area': './consumers#memberAreaConsumer',
      'memberships-community': './consumers#communityCleanupConsumer',
      'membership-post-notify': './workers#notifyQueue',
    },
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: allMembershipOperations,
  privacy: membershipsPrivacy,
  needs: ['table', 'queue', 'scheduler', 'render'],
  consumers: [memberSubscriptionConsumer, memberOrderConsumer, membershipResyncConsumer, postNotifyConsumer, memberAreaConsumer, communityCleanupConsumer],
  queues: [notifyQueue],
  jobs: membershipJobs,
  eventTypes: ['member.joined', 'member.left', RESYNC_EVENT, NOTIFY_EVENT, BAN_HIDE_EVENT, THREAD_DELETED_EVENT],
});
