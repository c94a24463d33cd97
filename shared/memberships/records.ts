/** Membership records as stored. Members live under their membership, keyed by email. */
export const MEMBERSHIP = 'MEMBERSHIP';
export const MEMBER = 'MEMBER';
export const MEMBER_COUNTS = 'MEMBERCOUNTS';

export type MembershipStatus = 'active' | 'archived';

export interface MembershipRecord {
  _id: string;
  name: string;
  slug: string;
  offerIds: string[];
  productIds: string[];
  /**
   * Buyers of `productIds` become members too (a lifetime member row until a full refund). Off by
   * default, and absent on memberships from before the switch: the spec's member row is "one per
   * email across the membership's offers", live while a subscription is.
   */
  productBuyersJoin?: boolean;
  status: MembershipStatus;
  communityEnabled: boolean;
  postEmailsEnabled: boolean;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export type MemberStatus = 'active' | 'ended';
export type LeaveReason = 'subscription_ended' | 'membership_changed' | 'membership_closed';

/**
 * One row per email in a membership. `sources` are the live reasons for access:
 * `offer:<offerId>:sub:<subscriberId>` or `product:<productId>:order:<orderId>`. Active while any
 * source is live; `rev` guards concurrent transitions (optimistic concurrency).
 */
export interface MemberRecord {
  email: string;
  name: string | null;
  status: MemberStatus;
  sources: string[];
  joinedAt: string;
  leftAt: string | null;
  leftReason: LeaveReason | null;
  rev: number;
}

export const POST = 'POST';
export const NOTIFIED = 'NOTIFIED';

export type PostStatus = 'draft' | 'published';
export type NotifyState = 'pending' | 'sending' | 'sent';

export interface MemberPostRecord {
  _id: string;
  membershipId: string;
  title: string;
  /** Sanitised on write. */
  html: string;
  status: PostStatus;
  notify: boolean;
  pinned: boolean;
  notifyState: NotifyState | null;
  notifiedCount: number;
  /** Resumable notification: the committed member cursor, the batch number and its lease. */
  notifyCursor: string | null;
  notifyBatch: number;
  leaseUntil: number;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

// ---- community ----

export const THREAD = 'THREAD';
export const REPLY = 'REPLY';
export const BAN = 'MEMBERSHIPBAN';
export const AREA = 'AREA';

export type AuthorRole = 'member' | 'creator';

/** A community thread. `replyCount` counts visible replies, changed in the same transaction as each reply. */
export interface ThreadRecord {
  _id: string;
  membershipId: string;
  title: string;
  /** Plain text; escaped when rendered. */
  body: string;
  authorEmail: string;
  authorName: string | null;
  authorRole: AuthorRole;
  hidden: boolean;
  locked: boolean;
  pinned: boolean;
  replyCount: number;
  /** Guards moderation changes (reply counts move with atomic adds and leave it alone). */
  rev: number;
  createdAt: string;
  updatedAt: string;
}

export interface ReplyRecord {
  _id: string;
  membershipId: string;
  threadId: string;
  body: string;
  authorEmail: string;
  authorName: string | null;
  authorRole: AuthorRole;
  hidden: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A banned author: refused in every community of the account's mode. */
export interface BanRecord {
  email: string;
  hideContent: boolean;
  bannedAt: string;
}

/**
 * A member's capability link into the member area: `token` is the unguessable path segment,
 * `csrf` the form secret. Issued when the member joins, revoked when they leave.
 */
export interface MemberAreaRecord {
  email: string;
  membershipId: string;
  token: string;
  csrf: string;
  joinEventId: string;
  mailed: boolean;
  issuedAt: string;
}
