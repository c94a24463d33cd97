import type { BusConsumer } from '../platform/capability';
import { BAN_HIDE_EVENT, hideAuthorContent, removeThreadReplies, THREAD_DELETED_EVENT } from './community/service';
import { issueAreaLink, revokeAreaLink } from './member-area/access';
import { onOrderEvent, onSubscriptionEvent, resyncMembership, RESYNC_EVENT } from './service';

/** Subscription events whose subscriber state may have changed access. */
const SUBSCRIPTION_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.pause',
  'customer.subscription.resumed',
];

/**
 * Members derive from committed events. Each handler works on current state with set semantics,
 * so a redelivered event (or a duplicated processor notification) changes nothing and fires nothing.
 */
export const memberSubscriptionConsumer: BusConsumer = {
  name: 'memberships-subscribers',
  eventTypes: SUBSCRIPTION_EVENTS,
  handle: (event, deps) => onSubscriptionEvent(deps, event),
};

export const memberOrderConsumer: BusConsumer = {
  name: 'memberships-orders',
  eventTypes: ['order.completed', 'order.refunded'],
  handle: (event, deps) => onOrderEvent(deps, event),
};

export const membershipResyncConsumer: BusConsumer = {
  name: 'memberships-resync',
  eventTypes: [RESYNC_EVENT],
  handle: (event, deps) => resyncMembership(deps, event),
};

/** Issues and mails the member-area link on join; revokes it on leave. */
export const memberAreaConsumer: BusConsumer = {
  name: 'memberships-member-area',
  // Mails are queued for the email capability's worker (shared/email/outbox.ts).
  needs: ['table', 'queue', 'scheduler'],
  eventTypes: ['member.joined', 'member.left'],
  handle: (event, deps) => (event.type === 'member.joined' ? issueAreaLink(deps, event) : revokeAreaLink(deps, event)),
};

export const communityCleanupConsumer: BusConsumer = {
  name: 'memberships-community',
  eventTypes: [BAN_HIDE_EVENT, THREAD_DELETED_EVENT],
  handle: (event, deps) => (event.type === BAN_HIDE_EVENT ? hideAuthorContent(deps, event) : removeThreadReplies(deps, event)),
};
