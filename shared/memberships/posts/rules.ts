import type { MemberPostRecord } from '../records';

/** Pure rules of members-only posts. */

/**
 * Whether saving `next` starts a notification: published with `notify`, post emails on, and never
 * notified before (a post is announced at most once, so no member gets a second mail for it).
 */
export const startsNotification = (
  before: Pick<MemberPostRecord, 'notifyState'> | undefined,
  next: Pick<MemberPostRecord, 'status' | 'notify'>,
  postEmailsEnabled: boolean,
) => next.status === 'published' && next.notify && postEmailsEnabled && !before?.notifyState;

/** Pinned first, then newest first. */
export const orderPosts = <T extends Pick<MemberPostRecord, '_id' | 'pinned'>>(posts: T[]) =>
  [...posts].sort((a, b) => Number(b.pinned) - Number(a.pinned) || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0));
