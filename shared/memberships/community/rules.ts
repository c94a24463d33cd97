import type { ReplyRecord, ThreadRecord } from '../records';

/** Pure rules of the community. Unit-tested. */

/** Index sort of a thread: read descending, pinned threads come first, then the newest. */
export const threadSort = (t: Pick<ThreadRecord, '_id' | 'pinned'>) => `${t.pinned ? 1 : 0}#${t._id}`;

/** The creator's view (this API): everything, with the author's email. */
export const presentThread = (t: ThreadRecord) => ({
  _id: t._id,
  membershipId: t.membershipId,
  title: t.title,
  body: t.body,
  author: { email: t.authorEmail, name: t.authorName, role: t.authorRole },
  hidden: t.hidden,
  locked: t.locked,
  pinned: t.pinned,
  replyCount: t.replyCount,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
});

export const presentReply = (r: ReplyRecord) => ({
  _id: r._id,
  threadId: r.threadId,
  body: r.body,
  author: { email: r.authorEmail, name: r.authorName, role: r.authorRole },
  hidden: r.hidden,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** What a member sees of an author: a name, never the email. */
export const publicAuthor = (r: Pick<ThreadRecord, 'authorName' | 'authorRole'>, creatorLabel: string) =>
  r.authorRole === 'creator' ? creatorLabel : r.authorName?.trim() || 'A member';

export interface ModerationPatch {
  hidden?: boolean;
  locked?: boolean;
  pinned?: boolean;
}

/** The thread after a moderation patch, or undefined when nothing changes. */
export function moderateThread(current: ThreadRecord, patch: ModerationPatch, now: string): ThreadRecord | undefined {
  const next = { ...current, hidden: patch.hidden ?? current.hidden, locked: patch.locked ?? current.locked, pinned: patch.pinned ?? current.pinned };
  if (next.hidden === current.hidden && next.locked === current.locked && next.pinned === current.pinned) return undefined;
  return { ...next, updatedAt: now };
}

/** Text written in the community: trimmed, line endings unified, never empty. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}
