import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { isConditionFailed } from '../store/conditional';
import {
  MEMBER,
  MEMBER_COUNTS,
  MEMBERSHIP,
  NOTIFIED,
  POST,
  type MemberPostRecord,
  type MemberRecord,
  type MemberStatus,
  type MembershipRecord,
} from './records';

// Layout, built for hundreds of thousands of members per membership (no request reads a whole
// partition; each list is one page of one query):
// - membership:  PK=<scope>#MEMBERSHIP, SK=<id>  (bounded: one creator's memberships)
// - member:      PK=<scope>#MEMBERSHIP#<id>#MEMBER, SK=<email>  (`q` as an email prefix is a key condition)
// - by status:   GSI1 <scope>#MEMBERS_BY_STATUS#<id>#<status>, sort <email>
// - counters:    PK=<scope>#MEMBERSHIP#<id>#MEMBERCOUNTS, SK=all  (`active`, `ended`, added in the
//                same transaction as each transition, so `counts` never scans)

const membershipKey = (scope: Scope, id: string) => keys.entity(scope, MEMBERSHIP, id);
const memberKey = (scope: Scope, membershipId: string, email: string) => keys.child(scope, MEMBERSHIP, membershipId, MEMBER, email);
const countsKey = (scope: Scope, membershipId: string) => keys.child(scope, MEMBERSHIP, membershipId, MEMBER_COUNTS, 'all');
const statusIndex = (scope: Scope, membershipId: string, member: MemberRecord) =>
  keys.indexed('GSI1', scope, 'MEMBERS_BY_STATUS', `${membershipId}#${member.status}`, member.email);

const membershipItem = (scope: Scope, m: MembershipRecord) => toItem(membershipKey(scope, m._id), 'Membership', m);
const memberItem = (scope: Scope, membershipId: string, member: MemberRecord) =>
  toItem(
    memberKey(scope, membershipId, member.email),
    'Member',
    { ...member, membershipId, search: `${member.email} ${member.name ?? ''}`.toLowerCase() },
    { indexes: [statusIndex(scope, membershipId, member)] },
  );

const stripMember = (item: Record<string, unknown> | undefined) => {
  const record = toRecord<MemberRecord & { membershipId?: string; search?: string }>(item);
  if (!record) return undefined;
  const { membershipId: _m, search: _s, ...member } = record;
  return member as MemberRecord;
};

export async function getMembership(store: Store, scope: Scope, id: string): Promise<MembershipRecord | undefined> {
  return toRecord<MembershipRecord>(await store.get(membershipKey(scope, id)));
}

/** Every membership of the tenant and mode, newest first (bounded per creator). */
export async function listMemberships(store: Store, scope: Scope): Promise<MembershipRecord[]> {
  return (await store.queryAll({ pk: keys.collection(scope, MEMBERSHIP) })).map((item) => toRecord<MembershipRecord>(item)!);
}

export async function getMember(store: Store, scope: Scope, membershipId: string, email: string): Promise<MemberRecord | undefined> {
  return stripMember(await store.get(memberKey(scope, membershipId, email), { consistent: true }));
}

export async function getCounts(store: Store, scope: Scope, membershipId: string): Promise<{ active: number; ended: number }> {
  const item = await store.get<{ active?: number; ended?: number }>(countsKey(scope, membershipId));
  return { active: item?.active ?? 0, ended: item?.ended ?? 0 };
}

/**
 * One page of members: by status through GSI1, else the member partition; `q` is an email prefix
 * (key condition) or, when it is no email prefix match, a substring of "email name" (filter).
 */
export async function listMembers(
  store: Store,
  scope: Scope,
  membershipId: string,
  filter: { status?: MemberStatus; q?: string },
  page: { limit: number; cursor?: string },
): Promise<{ items: MemberRecord[]; cursor?: string }> {
  const partition = filter.status
    ? keys.indexPartition('GSI1', scope, 'MEMBERS_BY_STATUS', `${membershipId}#${filter.status}`)
    : { pk: keys.children(scope, MEMBERSHIP, membershipId, MEMBER) };
  const q = filter.q?.trim().toLowerCase();
  const result = await store.query({
    ...partition,
    ascending: true,
    limit: page.limit,
    cursor: page.cursor,
    ...(q ? { filter: { expression: 'contains(#search, :q)', names: { '#search': 'search' }, values: { ':q': q } } } : {}),
  });
  return { items: result.items.map((item) => stripMember(item)!), cursor: result.cursor };
}

/** Every member key of a membership, a page at a time (resync and archive walk these). */
export async function memberPage(store: Store, scope: Scope, membershipId: string, cursor: string | undefined, limit = 200) {
  const result = await store.query({ pk: keys.children(scope, MEMBERSHIP, membershipId, MEMBER), ascending: true, limit, cursor });
  return { items: result.items.map((item) => stripMember(item)!), cursor: result.cursor };
}

// ---- writes, handed to the service so they share one transaction with the event they cause ----

export const membershipWrites = {
  create: (scope: Scope, m: MembershipRecord): TransactOp => ({ put: membershipItem(scope, m), condition: 'attribute_not_exists(PK)' }),
  replace: (scope: Scope, m: MembershipRecord, readUpdatedAt: string): TransactOp => ({
    put: membershipItem(scope, m),
    condition: 'attribute_exists(PK) AND #updatedAt = :readUpdatedAt',
    names: { '#updatedAt': 'updatedAt' },
    values: { ':readUpdatedAt': readUpdatedAt },
  }),
};

export const memberWrites = {
  /** Writes the next row if the stored one is still at the revision that was read (or absent). */
  put: (scope: Scope, membershipId: string, next: MemberRecord, readRev: number | undefined): TransactOp =>
    readRev === undefined
      ? { put: memberItem(scope, membershipId, next), condition: 'attribute_not_exists(PK)' }
      : { put: memberItem(scope, membershipId, next), condition: '#rev = :rev', names: { '#rev': 'rev' }, values: { ':rev': readRev } },
  counts: (scope: Scope, membershipId: string, delta: { active: number; ended: number }): TransactOp => ({
    update: countsKey(scope, membershipId),
    set: {},
    add: { active: delta.active, ended: delta.ended },
  }),
};

// ---- posts ----
// - post:      PK=<scope>#MEMBERSHIP#<id>#POST, SK=<postId>  (newest first)
// - notified:  PK=<scope>#MEMBERSHIP#<id>#NOTIFIED, SK=<postId>#<email>  (created before the mail is handed over)

const postKey = (scope: Scope, membershipId: string, postId: string) => keys.child(scope, MEMBERSHIP, membershipId, POST, postId);
/** A notification batch's claimed-batch marker (shared/store/claimed-batch.ts): the at-most-once guard. */
export const notifyBatchKey = (scope: Scope, membershipId: string, postId: string, batch: number) =>
  keys.child(scope, MEMBERSHIP, membershipId, NOTIFIED, `${postId}#${String(batch).padStart(8, '0')}`);

export async function getPost(store: Store, scope: Scope, membershipId: string, postId: string, consistent = false): Promise<MemberPostRecord | undefined> {
  return toRecord<MemberPostRecord>(await store.get(postKey(scope, membershipId, postId), { consistent }));
}

export async function listPosts(
  store: Store,
  scope: Scope,
  membershipId: string,
  filter: { status?: 'draft' | 'published' },
  page: { limit: number; cursor?: string },
) {
  const result = await store.query({
    pk: keys.children(scope, MEMBERSHIP, membershipId, POST),
    limit: page.limit,
    cursor: page.cursor,
    ...(filter.status ? { filter: { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': filter.status } } } : {}),
  });
  return { items: result.items.map((item) => toRecord<MemberPostRecord>(item)!), cursor: result.cursor };
}

export const postWrites = {
  create: (scope: Scope, post: MemberPostRecord): TransactOp => ({
    put: toItem(postKey(scope, post.membershipId, post._id), 'MemberPost', post),
    condition: 'attribute_not_exists(PK)',
  }),
  replace: (scope: Scope, post: MemberPostRecord, readUpdatedAt: string): TransactOp => ({
    put: toItem(postKey(scope, post.membershipId, post._id), 'MemberPost', post),
    condition: 'attribute_exists(PK) AND #updatedAt = :readUpdatedAt',
    names: { '#updatedAt': 'updatedAt' },
    values: { ':readUpdatedAt': readUpdatedAt },
  }),
  delete: (scope: Scope, post: MemberPostRecord): TransactOp => ({ delete: postKey(scope, post.membershipId, post._id), condition: 'attribute_exists(PK)' }),
};

/** Takes the notification's batch if it is still that batch and no live worker holds it. */
export async function claimNotifyBatch(
  store: Store,
  scope: Scope,
  membershipId: string,
  postId: string,
  batch: number,
  nowMs: number,
  leaseUntil: number,
): Promise<MemberPostRecord | undefined> {
  try {
    const item = await store.update(
      postKey(scope, membershipId, postId),
      { set: { leaseUntil, notifyState: 'sending' } },
      {
        condition: 'attribute_exists(PK) AND #batch = :batch AND #lease < :now AND #state IN (:pending, :sending)',
        names: { '#batch': 'notifyBatch', '#lease': 'leaseUntil', '#state': 'notifyState' },
        values: { ':batch': batch, ':now': nowMs, ':pending': 'pending', ':sending': 'sending' },
      },
    );
    return toRecord<MemberPostRecord>(item as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailed(error)) return undefined;
    throw error;
  }
}

/** Records the batch's progress and hands the next batch on (or finishes). */
export async function advanceNotifyBatch(store: Store, scope: Scope, post: MemberPostRecord, progress: { cursor: string | null; sent: number; done: boolean }) {
  await store.update(
    postKey(scope, post.membershipId, post._id),
    {
      set: { notifyCursor: progress.cursor, notifyBatch: post.notifyBatch + 1, leaseUntil: 0, ...(progress.done ? { notifyState: 'sent' } : {}) },
      add: { notifiedCount: progress.sent },
    },
    { condition: '#batch = :batch', names: { '#batch': 'notifyBatch' }, values: { ':batch': post.notifyBatch } },
  );
}

/** Gives a failed batch back at once (the queue's retry may take it without waiting for the lease). */
export async function releaseNotifyLease(store: Store, scope: Scope, post: MemberPostRecord) {
  await store
    .update(
      postKey(scope, post.membershipId, post._id),
      { set: { leaseUntil: 0 } },
      { condition: '#batch = :batch', names: { '#batch': 'notifyBatch' }, values: { ':batch': post.notifyBatch } },
    )
    .catch((error) => {
      if (!isConditionFailed(error)) throw error;
    });
}

/**
 * An erased buyer's member row goes (its key is the address), if nobody changed it since it was
 * read, and the count of its status with it.
 */
export const memberErasure = (scope: Scope, membershipId: string, member: MemberRecord): TransactOp[] => [
  { delete: memberKey(scope, membershipId, member.email), condition: '#rev = :rev', names: { '#rev': 'rev' }, values: { ':rev': member.rev } },
  memberWrites.counts(scope, membershipId, { active: member.status === 'active' ? -1 : 0, ended: member.status === 'ended' ? -1 : 0 }),
];
