import { defineCapability } from '../platform/capability';
import { memberOrderConsumer, memberSubscriptionConsumer, membershipResyncConsumer } from './consumers';
import { membershipOperations } from './operations';
import { RESYNC_EVENT } from './service';

/** Memberships: members derived from subscriptions and sales, member events. */
export const memberships = defineCapability({
  name: 'memberships',
  operations: membershipOperations,
  needs: ['table'],
  consumers: [memberSubscriptionConsumer, memberOrderConsumer, membershipResyncConsumer],
  eventTypes: ['member.joined', 'member.left', RESYNC_EVENT],
});
