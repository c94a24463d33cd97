import { keys, type IndexKey, type Scope } from '../../store/keys';
import { toItem } from '../../store/items';
import { toRecord, type Store, type TransactOp } from '../../store/store';
import { AREA, BAN, MEMBERSHIP, REPLY, THREAD, type BanRecord, type MemberAreaRecord, type ReplyRecord, type ThreadRecord } from '../records';
import { threadSort } from './rules';

// Community layout (a membership may hold thousands of threads, a thread thousands of replies;
// every list is one page of one query, never a partition read):
// - thread:        PK=<scope>#MEMBERSHIP#<mid>#THREAD, SK=<tid>
//   all (creator): GSI1 <scope>#THREADS#<mid>, sort `<1 pinned|0>#<tid>` (descending: pinned, then newest)
//   visible:       GSI2 <scope>#VISIBLE_THREADS#<mid>, same sort; present only while not hidden (sparse)
// - reply:         PK=<scope>#THREAD#<tid>#REPLY, SK=<rid>  (oldest first; all, for the creator)
//   visible:       GSI2 <scope>#VISIBLE_REPLIES#<tid>, sort <rid>; only while not hidden
// - by author:     GSI3 <scope>#COMMUNITY_BY_AUTHOR#<email>, sort `T#<mid>#<tid>` / `R#<mid>#<tid>#<rid>`
//                  (ban with hideContent walks it)
// - ban:           PK=<scope>#MEMBERSHIPBAN, SK=<email>  (account and mode wide: all the creator's communities)
// - member area:   PK=<scope>#MEMBERSHIP#<mid>#AREA, SK=<email>; its token: CAP#memberarea#<token>

const threadKey = (scope: Scope, membershipId: string, threadId: string) => keys.child(scope, MEMBERSHIP, membershipId, THREAD, threadId);
const replyKey = (scope: Scope, threadId: string, replyId: string) => keys.child(scope, THREAD, threadId, REPLY, replyId);
const banKey = (scope: Scope, email: string) => keys.entity(scope, BAN, email);
const areaKey = (scope: Scope, membershipId: string, email: string) => keys.child(scope, MEMBERSHIP, membershipId, AREA, email);
export const areaCapabilityKey = (token: string) => keys.capability('memberarea', token);

const INDEX_ATTRIBUTES = ['GSI1PK', 'GSI1SK', 'GSI2PK', 'GSI2SK', 'GSI3PK', 'GSI3SK'];

export function threadIndexes(scope: Scope, t: Pick<ThreadRecord, '_id' | 'membershipId' | 'pinned' | 'hidden' | 'authorEmail'>): IndexKey[] {
  const sort = threadSort(t);
  return [
    keys.indexed('GSI1', scope, 'THREADS', t.membershipId, sort),
    ...(t.hidden ? [] : [keys.indexed('GSI2', scope, 'VISIBLE_THREADS', t.membershipId, sort)]),
    keys.indexed('GSI3', scope, 'COMMUNITY_BY_AUTHOR', t.authorEmail, `T#${t.membershipId}#${t._id}`),
  ];
}

export function replyIndexes(scope: Scope, r: Pick<ReplyRecord, '_id' | 'membershipId' | 'threadId' | 'hidden' | 'authorEmail'>): IndexKey[] {
  return [
    ...(r.hidden ? [] : [keys.indexed('GSI2', scope, 'VISIBLE_REPLIES', r.threadId, r._id)]),
    keys.indexed('GSI3', scope, 'COMMUNITY_BY_AUTHOR', r.authorEmail, `R#${r.membershipId}#${r.threadId}#${r._id}`),
  ];
}

/** The index attributes of a record's new state as an update: set the present ones, remove the rest. */
function indexChange(indexes: IndexKey[]) {
  const set: Record<string, string> = Object.assign({}, ...indexes);
  return { set, remove: INDEX_ATTRIBUTES.filter((a) => !(a in set)) };
}

export async function getThread(store: Store, scope: Scope, membershipId: string, threadId: string, consistent = false) {
  return toRecord<ThreadRecord>(await store.get(threadKey(scope, membershipId, threadId), { consistent }));
}

export async function getReply(store: Store, scope: Scope, threadId: string, replyId: string, consistent = false) {
  return toRecord<ReplyRecord>(await store.get(replyKey(scope, threadId, replyId), { consistent }));
}

/** One page of threads: pinned first, then newest; `visibleOnly` reads the sparse members' path. */
export async function listThreads(store: Store, scope: Scope, membershipId: string, visibleOnly: boolean, page: { limit: number; cursor?: string }) {
  const partition = visibleOnly
    ? keys.indexPartition('GSI2', scope, 'VISIBLE_THREADS', membershipId)
    : keys.indexPartition('GSI1', scope, 'THREADS', membershipId);
  const result = await store.query({ ...partition, limit: page.limit, cursor: page.cursor });
  return { items: result.items.map((item) => toRecord<ThreadRecord>(item)!), cursor: result.cursor };
}

/** One page of a thread's replies, oldest first. */
export async function listReplies(store: Store, scope: Scope, threadId: string, visibleOnly: boolean, page: { limit: number; cursor?: string }) {
  const partition = visibleOnly ? keys.indexPartition('GSI2', scope, 'VISIBLE_REPLIES', threadId) : { pk: keys.children(scope, THREAD, threadId, REPLY) };
  const result = await store.query({ ...partition, ascending: true, limit: page.limit, cursor: page.cursor });
  return { items: result.items.map((item) => toRecord<ReplyRecord>(item)!), cursor: result.cursor };
}

/** One page of everything an author wrote in this account and mode (threads and replies). */
export async function authorContentPage(store: Store, scope: Scope, email: string, cursor: string | undefined, limit = 50) {
  const result = await store.query({ ...keys.indexPartition('GSI3', scope, 'COMMUNITY_BY_AUTHOR', email), ascending: true, limit, cursor });
  return { items: result.items.map((item) => ({ entity: String(item.entity), record: toRecord<ThreadRecord & ReplyRecord>(item)! })), cursor: result.cursor };
}

/** Every reply key of a thread, a page at a time (clean-up after a thread is deleted). */
export async function replyKeyPage(store: Store, scope: Scope, threadId: string, cursor: string | undefined, limit = 50) {
  const result = await store.query({ pk: keys.children(scope, THREAD, threadId, REPLY), ascending: true, limit, cursor });
  return { keys: result.items.map((item) => replyKey(scope, threadId, String(item.SK))), cursor: result.cursor };
}

export async function getBan(store: Store, scope: Scope, email: string) {
  return toRecord<BanRecord>(await store.get(banKey(scope, email), { consistent: true }));
}

export async function getArea(store: Store, scope: Scope, membershipId: string, email: string) {
  return toRecord<MemberAreaRecord>(await store.get(areaKey(scope, membershipId, email), { consistent: true }));
}

export async function findAreaToken(store: Store, token: string) {
  return toRecord<{ accountId: string; mode: 'live' | 'test'; membershipId: string; email: string }>(
    await store.get(areaCapabilityKey(token), { consistent: true }),
  );
}

// ---- writes (shared with the transaction of the change they belong to) ----

export const threadWrites = {
  create: (scope: Scope, t: ThreadRecord): TransactOp => ({
    put: toItem(threadKey(scope, t.membershipId, t._id), 'CommunityThread', t, { indexes: threadIndexes(scope, t) }),
    condition: 'attribute_not_exists(PK)',
  }),
  /** Moderation: the flags and the index paths they decide, if nobody moderated since `readRev`. */
  moderate: (scope: Scope, next: ThreadRecord, readRev: number): TransactOp => {
    const index = indexChange(threadIndexes(scope, next));
    return {
      update: threadKey(scope, next.membershipId, next._id),
      set: { hidden: next.hidden, locked: next.locked, pinned: next.pinned, updatedAt: next.updatedAt, ...index.set },
      remove: index.remove,
      add: { rev: 1 },
      condition: 'attribute_exists(PK) AND #rev = :rev',
      names: { '#rev': 'rev' },
      values: { ':rev': readRev },
    };
  },
  /** A reply became visible (+1) or stopped being visible (-1); `open` also refuses a locked or gone thread. */
  count: (scope: Scope, membershipId: string, threadId: string, delta: number, open = false): TransactOp => ({
    update: threadKey(scope, membershipId, threadId),
    set: {},
    add: { replyCount: delta },
    condition: open ? 'attribute_exists(PK) AND #locked = :false' : 'attribute_exists(PK)',
    ...(open ? { names: { '#locked': 'locked' }, values: { ':false': false } } : {}),
  }),
  /** A locked or gone thread takes no reply (replies that do not count still check it). */
  open: (scope: Scope, membershipId: string, threadId: string): TransactOp => ({
    check: threadKey(scope, membershipId, threadId),
    condition: 'attribute_exists(PK) AND #locked = :false',
    names: { '#locked': 'locked' },
    values: { ':false': false },
  }),
  exists: (scope: Scope, membershipId: string, threadId: string): TransactOp => ({
    check: threadKey(scope, membershipId, threadId),
    condition: 'attribute_exists(PK)',
  }),
  delete: (scope: Scope, t: ThreadRecord): TransactOp => ({ delete: threadKey(scope, t.membershipId, t._id), condition: 'attribute_exists(PK)' }),
};

export const replyWrites = {
  create: (scope: Scope, r: ReplyRecord): TransactOp => ({
    put: toItem(replyKey(scope, r.threadId, r._id), 'CommunityReply', r, { indexes: replyIndexes(scope, r) }),
    condition: 'attribute_not_exists(PK)',
  }),
  /** Flips `hidden` only from the other state, so the count moves once per real change. */
  setHidden: (scope: Scope, r: ReplyRecord, hidden: boolean, now: string): TransactOp => {
    const index = indexChange(replyIndexes(scope, { ...r, hidden }));
    return {
      update: replyKey(scope, r.threadId, r._id),
      set: { hidden, updatedAt: now, ...index.set },
      remove: index.remove,
      condition: 'attribute_exists(PK) AND #hidden = :was',
      names: { '#hidden': 'hidden' },
      values: { ':was': !hidden },
    };
  },
  delete: (scope: Scope, r: ReplyRecord): TransactOp => ({
    delete: replyKey(scope, r.threadId, r._id),
    condition: 'attribute_exists(PK) AND #hidden = :hidden',
    names: { '#hidden': 'hidden' },
    values: { ':hidden': r.hidden },
  }),
  deleteKey: (key: { PK: string; SK: string }): TransactOp => ({ delete: key }),
};

export const banWrites = {
  put: (scope: Scope, ban: BanRecord): TransactOp => ({ put: toItem(banKey(scope, ban.email), 'MembershipBan', ban) }),
  delete: (scope: Scope, email: string): TransactOp => ({ delete: banKey(scope, email) }),
};

export const areaWrites = {
  /** Issues the member's link once per join event (a redelivered event finds it and writes nothing). */
  issue: (scope: Scope, area: MemberAreaRecord, previous: MemberAreaRecord | undefined): TransactOp[] => [
    previous
      ? {
          put: toItem(areaKey(scope, area.membershipId, area.email), 'MemberArea', area),
          condition: '#event = :event',
          names: { '#event': 'joinEventId' },
          values: { ':event': previous.joinEventId },
        }
      : { put: toItem(areaKey(scope, area.membershipId, area.email), 'MemberArea', area), condition: 'attribute_not_exists(PK)' },
    ...(previous ? [{ delete: areaCapabilityKey(previous.token) }] : []),
    {
      put: toItem(areaCapabilityKey(area.token), 'MemberAreaToken', {
        accountId: scope.accountId,
        mode: scope.mode,
        membershipId: area.membershipId,
        email: area.email,
      }),
      condition: 'attribute_not_exists(PK)',
    },
  ],
  /** Marks the link mailed, once: it goes in the transaction that queues the mail. */
  mailed: (scope: Scope, area: MemberAreaRecord): TransactOp => ({
    update: areaKey(scope, area.membershipId, area.email),
    set: { mailed: true },
    condition: '#token = :token AND #mailed = :no',
    names: { '#token': 'token', '#mailed': 'mailed' },
    values: { ':token': area.token, ':no': false },
  }),
  revoke: (scope: Scope, area: MemberAreaRecord): TransactOp[] => [
    { delete: areaKey(scope, area.membershipId, area.email), condition: '#token = :token', names: { '#token': 'token' }, values: { ':token': area.token } },
    { delete: areaCapabilityKey(area.token) },
  ],
};

/**
 * An erased author's thread or reply: the address and name give way to `pseudonym`, and the
 * author index follows it (so the author's content stays findable for a repeat run, under the
 * pseudonym, and never under the address). The text stays in the conversation.
 */
export function authorErasure(scope: Scope, entity: string, record: ThreadRecord & ReplyRecord, pseudonym: string): TransactOp {
  const next = { ...record, authorEmail: pseudonym };
  const thread = entity === 'CommunityThread';
  const index = indexChange(thread ? threadIndexes(scope, next) : replyIndexes(scope, next));
  return {
    update: thread ? threadKey(scope, record.membershipId, record._id) : replyKey(scope, record.threadId, record._id),
    set: { authorEmail: pseudonym, authorName: null, ...index.set },
    remove: index.remove,
    condition: 'attribute_exists(PK)',
  };
}
