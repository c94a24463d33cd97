import type { Deps } from '../../platform/context';
import { newEvent, outboxPut } from '../../platform/events';
import { conflict, notFound } from '../../platform/errors';
import { isObjectId, objectId } from '../../platform/ids';
import { isConditionFailed } from '../../store/conditional';
import type { Scope } from '../../store/keys';
import type { TransactOp } from '../../store/store';
import { orderPosts, startsNotification } from './rules';
import { NOTIFY_EVENT } from './notify';
import type { MemberPostRecord, PostStatus } from '../records';
import { getPost, listPosts, postWrites } from '../repository';
import { requireMembership, type MembershipCtx } from '../service';

export interface PostInput {
  title?: string;
  html?: string;
  status?: PostStatus;
  notify?: boolean;
  pinned?: boolean;
}

export const presentPost = (p: MemberPostRecord) => {
  const { notifyCursor: _c, notifyBatch: _b, leaseUntil: _l, ...rest } = p;
  return rest;
};

const notifyEvent = (deps: Deps, scope: Scope, post: MemberPostRecord) =>
  outboxPut(newEvent(scope, deps.clock, NOTIFY_EVENT, { membershipId: post.membershipId, postId: post._id }));

export async function createMemberPost(ctx: MembershipCtx, membershipId: string, input: PostInput & { title: string; html: string }) {
  const membership = await requireMembership(ctx, ctx.scope, membershipId);
  if (membership.status === 'archived') throw conflict('The membership is archived; reopen it first', 'MEMBERSHIP_ARCHIVED');
  const now = ctx.clock.now().toISOString();
  const status = input.status ?? 'draft';
  const html = await ctx.ports.render.sanitizePost(input.html);
  const post: MemberPostRecord = {
    _id: objectId(ctx.clock),
    membershipId,
    title: input.title.trim(),
    html,
    status,
    notify: input.notify ?? false,
    pinned: input.pinned ?? false,
    notifyState: null,
    notifiedCount: 0,
    notifyCursor: null,
    notifyBatch: 0,
    leaseUntil: 0,
    publishedAt: status === 'published' ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  const ops: TransactOp[] = [];
  if (startsNotification(undefined, post, membership.postEmailsEnabled)) {
    post.notifyState = 'pending';
    ops.push(notifyEvent(ctx, ctx.scope, post));
  }
  await ctx.store.transact([postWrites.create(ctx.scope, post), ...ops]);
  return presentPost(post);
}

async function requirePost(deps: Deps, scope: Scope, membershipId: string, postId: string) {
  const post = isObjectId(postId) ? await getPost(deps.store, scope, membershipId, postId) : undefined;
  if (!post) throw notFound('Post');
  return post;
}

export async function readMemberPost(ctx: MembershipCtx, membershipId: string, postId: string) {
  await requireMembership(ctx, ctx.scope, membershipId);
  return presentPost(await requirePost(ctx, ctx.scope, membershipId, postId));
}

/** One page, newest first; pinned posts of the page come first. */
export async function listMemberPosts(deps: Deps, scope: Scope, membershipId: string, query: { status?: PostStatus; limit: number; cursor?: string }) {
  await requireMembership(deps, scope, membershipId);
  const page = await listPosts(deps.store, scope, membershipId, query, query);
  return { data: orderPosts(page.items).map(presentPost), nextCursor: page.cursor ?? null };
}

export async function updateMemberPost(ctx: MembershipCtx, membershipId: string, postId: string, input: PostInput) {
  const membership = await requireMembership(ctx, ctx.scope, membershipId);
  let html: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const current = await requirePost(ctx, ctx.scope, membershipId, postId);
    // Sanitised once, and only for a post that exists (a render invoke in AWS).
    if (input.html !== undefined) html ??= await ctx.ports.render.sanitizePost(input.html);
    const now = ctx.clock.now().toISOString();
    const next: MemberPostRecord = {
      ...current,
      title: input.title?.trim() ?? current.title,
      html: html ?? current.html,
      status: input.status ?? current.status,
      notify: input.notify ?? current.notify,
      pinned: input.pinned ?? current.pinned,
      updatedAt: now,
    };
    if (next.status === 'published' && !next.publishedAt) next.publishedAt = now;
    const ops: TransactOp[] = [];
    if (startsNotification(current, next, membership.postEmailsEnabled)) {
      next.notifyState = 'pending';
      ops.push(notifyEvent(ctx, ctx.scope, next));
    }
    try {
      await ctx.store.transact([postWrites.replace(ctx.scope, next, current.updatedAt), ...ops]);
      return presentPost(next);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      if (attempt >= 3) throw conflict('The post changed while this request ran; try again', 'CONCURRENT_UPDATE');
    }
  }
}

export async function deleteMemberPost(ctx: MembershipCtx, membershipId: string, postId: string) {
  await requireMembership(ctx, ctx.scope, membershipId);
  const post = await requirePost(ctx, ctx.scope, membershipId, postId);
  if (post.notifyState === 'sending' || post.notifyState === 'pending')
    throw conflict('The post is being emailed; delete it once the notification is sent', 'NOTIFY_IN_PROGRESS');
  await ctx.store.transact([postWrites.delete(ctx.scope, post)]);
  return { _id: post._id, deleted: true as const };
}
