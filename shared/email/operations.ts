import { requestLanguage } from '../account/buyer-language';
import { langQuery } from '../platform/i18n/query';
import { defineOperation, rawReply, reply } from '../platform/operation';
import { invalidLinkPage, PIXEL, unsubscribeConfirmPage, unsubscribedPage } from './pages';
import type { PostRecord } from './records';
import { emailSchemas as schemas } from './schemas';
import {
  cancelSchedule,
  createPost,
  deletePost,
  describeUnsubscribe,
  getPost,
  listPosts,
  readSettings,
  recordLinkEngagement,
  schedulePost,
  startPostSend,
  unsubscribeByToken,
  updatePost,
  updateSettings,
} from './service';
import { sendTransactional } from './delivery';

const view = (post: PostRecord) => {
  const { cursor: _c, batch: _b, leaseUntil: _l, linkBaseUrl: _u, ...rest } = post;
  return {
    ...rest,
    tag: post.audience.type === 'tag' ? post.audience.tag : null,
    segmentId: post.audience.type === 'segment' ? post.audience.segmentId : null,
  };
};

const html = (status: number, body: string) => rawReply(status, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });
const tags = ['Newsletters'];

export const emailOperations = [
  defineOperation({
    operationId: 'getNewsletterSettings',
    tool: 'get_newsletter_settings',
    summary: "Sender, default from name, reply-to, physical address and footer; the sender's verification is read from the mail provider",
    tags,
    method: 'GET',
    path: '/newsletters/settings',
    auth: 'key',
    get output() {
      return schemas().settingsSchema;
    },
    handler: async (ctx) => readSettings(ctx),
  }),
  defineOperation({
    operationId: 'updateNewsletterSettings',
    tool: 'update_newsletter_settings',
    summary: 'Changes sender and footer settings; a physical address is required before any send',
    tags,
    method: 'PUT',
    path: '/newsletters/settings',
    auth: 'key',
    get body() {
      return schemas().settingsBody;
    },
    get output() {
      return schemas().settingsSchema;
    },
    handler: async (ctx, { body }) => updateSettings(ctx, body),
  }),
  defineOperation({
    operationId: 'sendEmail',
    tool: 'send_email',
    summary: 'Sends one email to 1 to 100 recipients (needs a verified sender); stored as a sent post with source api',
    description:
      'Addresses are lower-cased and de-duplicated; suppressed and unsubscribed addresses are left out of `accepted`. Every mail gets the footer, the physical address and a per-recipient unsubscribe link. 403 EMAIL_SENDER_NOT_VERIFIED, 502 EMAIL_SEND_FAILED when no mail could go out.',
    tags,
    method: 'POST',
    path: '/newsletters/send',
    auth: 'key',
    get body() {
      return schemas().sendBody;
    },
    get output() {
      return schemas().sendOutput;
    },
    handler: async (ctx, { body }) =>
      sendTransactional(
        ctx,
        ctx.scope,
        { ...body, to: typeof body.to === 'string' ? [body.to] : body.to, source: 'api', baseUrl: ctx.request.baseUrl },
        ctx.account,
      ),
  }),
  defineOperation({
    operationId: 'listNewsletterPosts',
    tool: 'list_newsletter_posts',
    summary: 'Newsletter posts, newest first; cursor pagination with `limit` and `after`',
    tags,
    method: 'GET',
    path: '/newsletters/posts',
    auth: 'key',
    get query() {
      return schemas().listQuery;
    },
    get output() {
      return schemas().postPage;
    },
    handler: async (ctx, { query }) => {
      const page = await listPosts(ctx, ctx.scope, { limit: query.limit, cursor: query.after });
      return { data: page.posts.map(view), nextCursor: page.cursor ?? null };
    },
  }),
  defineOperation({
    operationId: 'createNewsletterPost',
    tool: 'create_newsletter_post',
    summary: 'Creates a draft post for all subscribed contacts, a `tag`, or a `segmentId`',
    tags,
    method: 'POST',
    path: '/newsletters/posts',
    auth: 'key',
    get body() {
      return schemas().postCreateBody;
    },
    get output() {
      return schemas().postSchema;
    },
    status: 201,
    handler: async (ctx, { body }) => view(await createPost(ctx, body)),
  }),
  defineOperation({
    operationId: 'getNewsletterPost',
    tool: 'get_newsletter_post',
    summary: 'One post with its status and sent, opened and clicked counts',
    tags,
    method: 'GET',
    path: '/newsletters/posts/{id}',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params }) => view(await getPost(ctx, ctx.scope, params.id)),
  }),
  defineOperation({
    operationId: 'updateNewsletterPost',
    tool: 'update_newsletter_post',
    summary: 'Edits a draft or failed post',
    tags,
    method: 'PATCH',
    path: '/newsletters/posts/{id}',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get body() {
      return schemas().postUpdateBody;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params, body }) => view(await updatePost(ctx, params.id, body)),
  }),
  defineOperation({
    operationId: 'deleteNewsletterPost',
    tool: 'delete_newsletter_post',
    summary: 'Deletes a post that is not sending',
    tags,
    method: 'DELETE',
    path: '/newsletters/posts/{id}',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().postDeleted;
    },
    handler: async (ctx, { params }) => ({ _id: (await deletePost(ctx, params.id))._id, deleted: true as const }),
  }),
  defineOperation({
    operationId: 'sendNewsletterPost',
    tool: 'send_newsletter_post',
    summary: 'Starts sending a post now, in batches; each recipient is emailed at most once',
    tags,
    method: 'POST',
    path: '/newsletters/posts/{id}/send',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().postSchema;
    },
    status: 202,
    handler: async (ctx, { params }) => view(await startPostSend(ctx, ctx.scope, ctx.account, params.id, { baseUrl: ctx.request.baseUrl })),
  }),
  defineOperation({
    operationId: 'scheduleNewsletterPost',
    tool: 'schedule_newsletter_post',
    summary: 'Schedules a post for `sendAt`',
    tags,
    method: 'POST',
    path: '/newsletters/posts/{id}/schedule',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get body() {
      return schemas().scheduleBody;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params, body }) => view(await schedulePost(ctx, params.id, new Date(body.sendAt))),
  }),
  defineOperation({
    operationId: 'cancelNewsletterPostSchedule',
    tool: 'cancel_newsletter_post_schedule',
    summary: 'Cancels a scheduled send; the post is a draft again',
    tags,
    method: 'DELETE',
    path: '/newsletters/posts/{id}/schedule',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params }) => view(await cancelSchedule(ctx, params.id)),
  }),
  // ---- public links from the mails ----
  defineOperation({
    operationId: 'showUnsubscribe',
    summary: 'Unsubscribe page of a mail link: asks to confirm',
    tags: ['Email links'],
    method: 'GET',
    path: '/email/unsubscribe/{token}',
    auth: 'public',
    unmetered: true,
    get params() {
      return schemas().tokenParams;
    },
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      const t = await requestLanguage(query.lang, ctx.request.headers['accept-language']);
      const found = await describeUnsubscribe(ctx, params.token);
      const action = `${ctx.request.baseUrl}/email/unsubscribe/${params.token}${query.lang ? `?lang=${encodeURIComponent(query.lang)}` : ''}`;
      return found ? html(200, unsubscribeConfirmPage(found.email, found.fromName, action, t)) : html(404, invalidLinkPage(t));
    },
  }),
  defineOperation({
    operationId: 'confirmUnsubscribe',
    summary: "Confirms an unsubscribe: the page's form, or an RFC 8058 one-click post (List-Unsubscribe=One-Click)",
    tags: ['Email links'],
    method: 'POST',
    path: '/email/unsubscribe/{token}',
    auth: 'public',
    unmetered: true,
    get params() {
      return schemas().tokenParams;
    },
    bodyType: 'json-or-form',
    get body() {
      return schemas().engagementBody;
    },
    query: langQuery,
    handler: async (ctx, { params, query }) => {
      const t = await requestLanguage(query.lang, ctx.request.headers['accept-language']);
      const done = await unsubscribeByToken(ctx, params.token);
      return done ? html(200, unsubscribedPage(done.email, done.fromName, t)) : html(404, invalidLinkPage(t));
    },
  }),
  defineOperation({
    operationId: 'trackOpen',
    summary: 'Open pixel of a mail: records the open, answers a 1×1 GIF',
    tags: ['Email links'],
    method: 'GET',
    path: '/email/open/{token}',
    auth: 'public',
    unmetered: true,
    get params() {
      return schemas().tokenParams;
    },
    handler: async (ctx, { params }) => {
      await recordLinkEngagement(ctx, params.token, 'open');
      return rawReply(200, PIXEL, 'image/gif', { 'cache-control': 'no-store' });
    },
  }),
  defineOperation({
    operationId: 'trackClick',
    summary: 'Tracked link of a mail: records the click and redirects to the URL the mail contained',
    tags: ['Email links'],
    method: 'GET',
    path: '/email/click/{token}',
    auth: 'public',
    unmetered: true,
    get params() {
      return schemas().tokenParams;
    },
    handler: async (ctx, { params }) => {
      const found = await recordLinkEngagement(ctx, params.token, 'click');
      if (!found?.url || !/^https?:\/\//i.test(found.url))
        return html(404, invalidLinkPage(await requestLanguage(undefined, ctx.request.headers['accept-language'])));
      return reply(302, undefined, { location: found.url, 'cache-control': 'no-store' });
    },
  }),
];
