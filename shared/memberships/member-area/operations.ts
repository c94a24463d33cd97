import * as z from '../../platform/zod';
import type { PublicContext } from '../../platform/context';
import { ApiError } from '../../platform/errors';
import { randomBase62 } from '../../platform/ids';
import { defineOperation, rawReply, type Reply } from '../../platform/operation';
import { replyPage, threadPage, writeReply, writeThread, requireThread } from '../community/service';
import { csrfValid, resolveArea, type AreaAccess } from './access';
import { areaHeaders, postPage, postsPage, refusedPage, threadPage as renderThread, threadsPage, type PageFrame } from './pages';
import { getPost, listPosts } from '../repository';
import { isObjectId } from '../../platform/ids';
import { buyerLanguage, requestLanguage } from '../../account/buyer-language';
import type { Translator } from '../../platform/i18n/translator';
import { sellerBrand } from '../../account/branding';

// The member area: server-rendered pages behind the capability link mailed on join. The token in
// the path is the only credential (no cookie), so a cross-site page cannot ride on a session;
// forms still carry the member's CSRF secret and a foreign Origin is refused.

const tags = ['Memberships'];
const PAGE_SIZE = 20;
const REPLIES_PAGE = 50;

const tokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(64)) });
const postParams = z.extend(tokenParams, { postId: z.string().check(z.minLength(1), z.maxLength(64)) });
const threadParams = z.extend(tokenParams, { threadId: z.string().check(z.minLength(1), z.maxLength(64)) });
const pageQuery = z.object({ cursor: z.optional(z.string().check(z.maxLength(2000))), lang: z.optional(z.string().check(z.maxLength(35))) });
const langOnly = z.object({ lang: z.optional(z.string().check(z.maxLength(35))) });
const threadForm = z.object({
  csrf: z.optional(z.string().check(z.maxLength(100))),
  title: z.optional(z.string().check(z.maxLength(200))),
  body: z.optional(z.string().check(z.maxLength(10_000))),
});
const replyForm = z.object({ csrf: z.optional(z.string().check(z.maxLength(100))), body: z.optional(z.string().check(z.maxLength(10_000))) });

const html = (status: number, body: string, nonce: string) => rawReply(status, body, 'text/html; charset=utf-8', areaHeaders(nonce));
const refuse = (reason: Parameters<typeof refusedPage>[0], nonce: string, t: Translator) => {
  const r = refusedPage(reason, nonce, t);
  return html(r.status, r.html, nonce);
};

const seeOther = (location: string, nonce: string) => rawReply(303, '', 'text/plain; charset=utf-8', { ...areaHeaders(nonce), location });

/** Resolves the link, then renders with a fresh style nonce; refusals are pages too. */
async function withArea(
  ctx: PublicContext,
  token: string,
  lang: string | undefined,
  render: (access: AreaAccess, frame: PageFrame, nonce: string) => Promise<Reply>,
): Promise<Reply> {
  const nonce = randomBase62(22);
  const access = await resolveArea(ctx, token);
  if ('refused' in access) return refuse(access.refused, nonce, await requestLanguage(lang, ctx.request.headers['accept-language']));
  const base = (ctx.request.baseUrl ?? '').replace(/\/$/, '');
  // The member's language: ?lang=, the one saved at their checkout, the browser's, the creator's default.
  const t = await buyerLanguage(ctx, access.scope, { query: lang, email: access.member.email, acceptLanguage: ctx.request.headers['accept-language'] });
  const brand = await sellerBrand(ctx, access.scope, base);
  const frame: PageFrame = { nonce, area: `${base}/member-area/${token}`, membership: access.membership, t, brand };
  try {
    return await render(access, frame, nonce);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return refuse('not_found', nonce, t);
    // A post refused with a reason (empty title, locked thread): the reason is the community's rule, as the API words it.
    if (error instanceof ApiError && error.status < 500)
      return html(error.status, refusedPage('forbidden', nonce, t, { title: 'area.notSentTitle', text: error.message }).html, nonce);
    throw error;
  }
}

/** A form post must come from this area (same Origin when the browser sends one) with the member's secret. */
function formAllowed(ctx: PublicContext, access: AreaAccess, csrf: string | undefined) {
  const origin = ctx.request.headers.origin;
  if (origin && origin !== 'null' && origin !== new URL(ctx.request.baseUrl).origin) return false;
  return csrfValid(access.area, csrf);
}

const author = (access: AreaAccess) => ({ email: access.member.email, name: access.member.name, role: 'member' as const });

export const memberAreaOperations = [
  defineOperation({
    operationId: 'memberAreaPosts',
    summary: 'Member area: published posts (capability link mailed on join)',
    tags,
    method: 'GET',
    path: '/member-area/{token}',
    auth: 'public',
    params: tokenParams,
    query: pageQuery,
    handler: async (ctx, { params, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        const page = await listPosts(ctx.store, access.scope, access.membership._id, { status: 'published' }, { limit: PAGE_SIZE, cursor: query.cursor });
        return html(200, postsPage(frame, page.items, page.cursor), nonce);
      }),
  }),
  defineOperation({
    operationId: 'memberAreaPost',
    summary: 'Member area: one published post',
    tags,
    method: 'GET',
    path: '/member-area/{token}/posts/{postId}',
    auth: 'public',
    params: postParams,
    query: langOnly,
    handler: async (ctx, { params, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        const post = isObjectId(params.postId) ? await getPost(ctx.store, access.scope, access.membership._id, params.postId) : undefined;
        if (!post || post.status !== 'published') return refuse('not_found', nonce, frame.t);
        return html(200, postPage(frame, post), nonce);
      }),
  }),
  defineOperation({
    operationId: 'memberAreaThreads',
    summary: 'Member area: community threads (visible ones), with the form to start one',
    tags,
    method: 'GET',
    path: '/member-area/{token}/community',
    auth: 'public',
    params: tokenParams,
    query: pageQuery,
    handler: async (ctx, { params, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        if (!access.membership.communityEnabled) return refuse('community_off', nonce, frame.t);
        const page = await threadPage(ctx, access.scope, access.membership._id, true, { limit: PAGE_SIZE, cursor: query.cursor });
        return html(200, threadsPage(frame, page.items, page.cursor, access.area.csrf), nonce);
      }),
  }),
  defineOperation({
    operationId: 'memberAreaStartThread',
    summary: 'Member area: form post that starts a thread',
    tags,
    method: 'POST',
    path: '/member-area/{token}/community',
    auth: 'public',
    bodyType: 'json-or-form',
    params: tokenParams,
    body: threadForm,
    query: langOnly,
    handler: async (ctx, { params, body, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        if (!access.membership.communityEnabled) return refuse('community_off', nonce, frame.t);
        if (!formAllowed(ctx, access, body.csrf)) return refuse('forbidden', nonce, frame.t);
        const thread = await writeThread(ctx, access.scope, access.membership, author(access), { title: body.title ?? '', body: body.body ?? '' });
        return seeOther(`${frame.area}/community/${thread._id}`, nonce);
      }),
  }),
  defineOperation({
    operationId: 'memberAreaThread',
    summary: 'Member area: one thread with its visible replies, oldest first, and the reply form',
    tags,
    method: 'GET',
    path: '/member-area/{token}/community/{threadId}',
    auth: 'public',
    params: threadParams,
    query: pageQuery,
    handler: async (ctx, { params, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        if (!access.membership.communityEnabled) return refuse('community_off', nonce, frame.t);
        const thread = await requireThread(ctx, access.scope, access.membership._id, params.threadId);
        if (thread.hidden) return refuse('not_found', nonce, frame.t);
        const replies = await replyPage(ctx, access.scope, thread._id, true, { limit: REPLIES_PAGE, cursor: query.cursor });
        return html(200, renderThread(frame, thread, replies.items, replies.cursor, access.area.csrf), nonce);
      }),
  }),
  defineOperation({
    operationId: 'memberAreaReply',
    summary: 'Member area: form post that replies to a thread',
    tags,
    method: 'POST',
    path: '/member-area/{token}/community/{threadId}/replies',
    auth: 'public',
    bodyType: 'json-or-form',
    params: threadParams,
    body: replyForm,
    query: langOnly,
    handler: async (ctx, { params, body, query }) =>
      withArea(ctx, params.token, query.lang, async (access, frame, nonce) => {
        if (!access.membership.communityEnabled) return refuse('community_off', nonce, frame.t);
        if (!formAllowed(ctx, access, body.csrf)) return refuse('forbidden', nonce, frame.t);
        await writeReply(ctx, access.scope, access.membership, params.threadId, author(access), { body: body.body ?? '' });
        return seeOther(`${frame.area}/community/${params.threadId}`, nonce);
      }),
  }),
];
