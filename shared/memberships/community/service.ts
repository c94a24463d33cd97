import type { Deps } from '../../platform/context';
import { newEvent, outboxPut, type DomainEvent } from '../../platform/events';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { isObjectId, objectId } from '../../platform/ids';
import { isConditionFailed } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import { cleanText, moderateThread, presentReply, presentThread, type ModerationPatch } from './rules';
import { authorContentPage, banWrites, getBan, getReply, getThread, listReplies, listThreads, replyKeyPage, replyWrites, threadWrites } from './repository';
import type { AuthorRole, MembershipRecord, ReplyRecord, ThreadRecord } from '../records';
import { requireMembership, type MembershipCtx } from '../service';

/** Internal events (never delivered): a ban that hides the author's content, a deleted thread's replies. */
export const BAN_HIDE_EVENT = 'membership.ban.hide';
export const THREAD_DELETED_EVENT = 'membership.thread.deleted';

export interface Author {
  email: string;
  name: string | null;
  role: AuthorRole;
}

const normEmail = (email: string) => email.trim().toLowerCase();

// ---- shared by the creator's API and the member area ----

function checkWritable(membership: MembershipRecord) {
  if (membership.status === 'archived') throw conflict('The membership is archived; reopen it first', 'MEMBERSHIP_ARCHIVED');
  if (!membership.communityEnabled) throw conflict('The community of this membership is switched off', 'COMMUNITY_DISABLED');
}

export async function requireThread(deps: Deps, scope: Scope, membershipId: string, threadId: string, consistent = false) {
  const thread = isObjectId(threadId) ? await getThread(deps.store, scope, membershipId, threadId, consistent) : undefined;
  if (!thread) throw notFound('Thread');
  return thread;
}

async function requireReply(deps: Deps, scope: Scope, thread: ThreadRecord, replyId: string, consistent = false) {
  const reply = isObjectId(replyId) ? await getReply(deps.store, scope, thread._id, replyId, consistent) : undefined;
  if (!reply || reply.membershipId !== thread.membershipId) throw notFound('Reply');
  return reply;
}

export async function writeThread(deps: Deps, scope: Scope, membership: MembershipRecord, author: Author, input: { title: string; body: string }) {
  checkWritable(membership);
  const title = cleanText(input.title);
  const body = cleanText(input.body);
  if (!title) throw badRequest('title is required', { field: 'title' });
  if (!body) throw badRequest('body is required', { field: 'body' });
  const now = deps.clock.now().toISOString();
  const thread: ThreadRecord = {
    _id: objectId(deps.clock),
    membershipId: membership._id,
    title,
    body,
    authorEmail: normEmail(author.email),
    authorName: author.name,
    authorRole: author.role,
    hidden: false,
    locked: false,
    pinned: false,
    replyCount: 0,
    rev: 0,
    createdAt: now,
    updatedAt: now,
  };
  await deps.store.transact([threadWrites.create(scope, thread)]);
  return thread;
}

/**
 * A reply and its thread's visible count in one transaction. A locked thread refuses members'
 * replies (the creator may still answer); a thread deleted meanwhile refuses every reply.
 */
export async function writeReply(deps: Deps, scope: Scope, membership: MembershipRecord, threadId: string, author: Author, input: { body: string }) {
  checkWritable(membership);
  const thread = await requireThread(deps, scope, membership._id, threadId);
  const asMember = author.role === 'member';
  // A hidden thread does not exist for members; a locked one is closed to them.
  if (asMember && thread.hidden) throw notFound('Thread');
  if (asMember && thread.locked) throw conflict('The thread is locked', 'THREAD_LOCKED');
  const body = cleanText(input.body);
  if (!body) throw badRequest('body is required', { field: 'body' });
  const now = deps.clock.now().toISOString();
  const reply: ReplyRecord = {
    _id: objectId(deps.clock),
    membershipId: membership._id,
    threadId: thread._id,
    body,
    authorEmail: normEmail(author.email),
    authorName: author.name,
    authorRole: author.role,
    hidden: false,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.store.transact([replyWrites.create(scope, reply), threadWrites.count(scope, membership._id, thread._id, 1, asMember)]);
  } catch (error) {
    if (isConditionFailed(error)) throw conflict('The thread was locked or deleted meanwhile', 'THREAD_LOCKED');
    throw error;
  }
  return reply;
}

/** Threads, pinned first then newest; members read the path that holds visible threads only. */
export async function threadPage(deps: Deps, scope: Scope, membershipId: string, visibleOnly: boolean, page: { limit: number; cursor?: string }) {
  return listThreads(deps.store, scope, membershipId, visibleOnly, page);
}

export async function replyPage(deps: Deps, scope: Scope, threadId: string, visibleOnly: boolean, page: { limit: number; cursor?: string }) {
  return listReplies(deps.store, scope, threadId, visibleOnly, page);
}

export async function isBanned(deps: Deps, scope: Scope, email: string) {
  return Boolean(await getBan(deps.store, scope, normEmail(email)));
}

// ---- the creator's API ----

const creatorAuthor = (ctx: MembershipCtx): Author => ({ email: ctx.account.email, name: ctx.account.name ?? null, role: 'creator' });

export async function listThreadsView(ctx: MembershipCtx, membershipId: string, query: { limit: number; cursor?: string }) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const page = await threadPage(ctx, ctx.scope, membershipId, false, query);
  return { data: page.items.map(presentThread), nextCursor: page.cursor ?? null };
}

export async function createThreadView(ctx: MembershipCtx, membershipId: string, input: { title: string; body: string }) {
  const membership = await requireMembership(ctx, ctx.scope, membershipId);
  return presentThread(await writeThread(ctx, ctx.scope, membership, creatorAuthor(ctx), input));
}

export async function readThreadView(ctx: MembershipCtx, membershipId: string, threadId: string, query: { limit: number; cursor?: string }) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const thread = await requireThread(ctx, ctx.scope, membershipId, threadId);
  const replies = await replyPage(ctx, ctx.scope, thread._id, false, query);
  return { ...presentThread(thread), replies: { data: replies.items.map(presentReply), nextCursor: replies.cursor ?? null } };
}

async function applyThreadModeration(deps: Deps, scope: Scope, membershipId: string, threadId: string, patch: ModerationPatch) {
  for (let attempt = 1; ; attempt++) {
    const current = await requireThread(deps, scope, membershipId, threadId, true);
    const next = moderateThread(current, patch, deps.clock.now().toISOString());
    if (!next) return current;
    try {
      await deps.store.transact([threadWrites.moderate(scope, next, current.rev)]);
      return { ...next, rev: current.rev + 1 };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= 3) throw conflict('The thread changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

export async function moderateThreadView(ctx: MembershipCtx, membershipId: string, threadId: string, patch: ModerationPatch) {
  await requireMembership(ctx, ctx.scope, membershipId);
  return presentThread(await applyThreadModeration(ctx, ctx.scope, membershipId, threadId, patch));
}

/** Deletes the thread at once; its replies are removed after, a page at a time, by a consumer. */
export async function deleteThreadView(ctx: MembershipCtx, membershipId: string, threadId: string) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const thread = await requireThread(ctx, ctx.scope, membershipId, threadId);
  await ctx.store.transact([
    threadWrites.delete(ctx.scope, thread),
    outboxPut(newEvent(ctx.scope, ctx.clock, THREAD_DELETED_EVENT, { membershipId, threadId })),
  ]);
  return { _id: thread._id, deleted: true as const };
}

export async function createReplyView(ctx: MembershipCtx, membershipId: string, threadId: string, input: { body: string }) {
  const membership = await requireMembership(ctx, ctx.scope, membershipId);
  return presentReply(await writeReply(ctx, ctx.scope, membership, threadId, creatorAuthor(ctx), input));
}

/** Hides or shows a reply and moves the thread's visible count with it, in one transaction. */
async function setReplyHidden(deps: Deps, scope: Scope, reply: ReplyRecord, hidden: boolean) {
  if (reply.hidden === hidden) return reply;
  const now = deps.clock.now().toISOString();
  try {
    await deps.store.transact([
      replyWrites.setHidden(scope, reply, hidden, now),
      threadWrites.count(scope, reply.membershipId, reply.threadId, hidden ? -1 : 1),
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    // Someone else flipped it first (or the thread is gone): the stored state is the answer.
    const fresh = await getReply(deps.store, scope, reply.threadId, reply._id, true);
    if (!fresh) throw notFound('Reply');
    if (fresh.hidden !== hidden) {
      if (!(await getThread(deps.store, scope, reply.membershipId, reply.threadId, true))) throw notFound('Thread');
      throw conflict('The reply changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
    return fresh;
  }
  return { ...reply, hidden, updatedAt: now };
}

export async function moderateReplyView(ctx: MembershipCtx, membershipId: string, threadId: string, replyId: string, patch: { hidden: boolean }) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const thread = await requireThread(ctx, ctx.scope, membershipId, threadId);
  const reply = await requireReply(ctx, ctx.scope, thread, replyId, true);
  return presentReply(await setReplyHidden(ctx, ctx.scope, reply, patch.hidden));
}

export async function deleteReplyView(ctx: MembershipCtx, membershipId: string, threadId: string, replyId: string) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const thread = await requireThread(ctx, ctx.scope, membershipId, threadId);
  for (let attempt = 1; ; attempt++) {
    const reply = await requireReply(ctx, ctx.scope, thread, replyId, true);
    const ops: TransactOp[] = [replyWrites.delete(ctx.scope, reply)];
    if (!reply.hidden) ops.push(threadWrites.count(ctx.scope, membershipId, threadId, -1));
    try {
      await ctx.store.transact(ops);
      return { _id: reply._id, deleted: true as const };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= 3) throw conflict('The reply changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

/**
 * Bans an author from every community of the account's mode. With `hideContent`, the ban and an
 * internal event commit together; a consumer then hides what they wrote, a page at a time.
 */
export async function banMember(ctx: MembershipCtx, input: { email: string; hideContent: boolean }) {
  const email = normEmail(input.email);
  const now = ctx.clock.now().toISOString();
  const ops: TransactOp[] = [banWrites.put(ctx.scope, { email, hideContent: input.hideContent, bannedAt: now })];
  if (input.hideContent) ops.push(outboxPut(newEvent(ctx.scope, ctx.clock, BAN_HIDE_EVENT, { email })));
  await ctx.store.transact(ops);
  return { email, banned: true as const, hideContent: input.hideContent, bannedAt: now };
}

/** Lifts the ban; content hidden by it stays hidden (unhide threads and replies one by one). */
export async function unbanMember(ctx: MembershipCtx, input: { email: string }) {
  const email = normEmail(input.email);
  if (!(await getBan(ctx.store, ctx.scope, email))) throw notFound('Ban');
  await ctx.store.transact([banWrites.delete(ctx.scope, email)]);
  return { email, banned: false as const };
}

// ---- consumers of the internal events ----

/** Hides everything the banned author wrote; already hidden items are skipped, so a redelivery is a no-op. */
export async function hideAuthorContent(deps: Deps, event: DomainEvent) {
  const scope = { accountId: event.accountId, mode: event.mode };
  const email = String(event.data.email);
  let cursor: string | undefined;
  do {
    const page = await authorContentPage(deps.store, scope, email, cursor);
    for (const { entity, record } of page.items) {
      if (record.hidden) continue;
      if (entity === 'CommunityThread') {
        await applyThreadModeration(deps, scope, record.membershipId, record._id, { hidden: true }).catch((error) => {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        });
      } else {
        await setReplyHidden(deps, scope, record, true).catch(async (error) => {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
          // The thread is gone: hide the reply alone (its count went with the thread).
          await deps.store.transact([replyWrites.setHidden(scope, record, true, deps.clock.now().toISOString())]).catch((e) => {
            if (!isConditionFailed(e)) throw e;
          });
        });
      }
    }
    cursor = page.cursor;
  } while (cursor);
}

/** Removes a deleted thread's replies, 25 per transaction. */
export async function removeThreadReplies(deps: Deps, event: DomainEvent) {
  const scope = { accountId: event.accountId, mode: event.mode };
  const threadId = String(event.data.threadId);
  for (;;) {
    const page = await replyKeyPage(deps.store, scope, threadId, undefined, 25);
    if (!page.keys.length) return;
    await deps.store.transact(page.keys.map(replyWrites.deleteKey));
    if (!page.cursor) return;
  }
}

export const forbiddenBanned = () => forbidden('This author is banned from the community', { code: 'MEMBER_BANNED' });
