import { defineOperation } from '../../platform/operation';
import { membershipSchemas as schemas } from '../schemas';
import {
  banMember,
  createReplyView,
  createThreadView,
  deleteReplyView,
  deleteThreadView,
  listThreadsView,
  moderateReplyView,
  moderateThreadView,
  readThreadView,
  unbanMember,
} from './service';

const tags = ['Memberships'];

/** The community's operations (moderation is open to every plan; writing as the creator needs Pro). */
export const communityOperations = [
  defineOperation({
    operationId: 'listCommunityThreads',
    tool: 'list_community_threads',
    summary: 'Community threads, pinned first then newest, hidden ones included (with the author email)',
    tags,
    method: 'GET',
    path: '/memberships/{id}/threads',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get query() {
      return schemas().pageQuery;
    },
    get output() {
      return schemas().threadPageSchema;
    },
    handler: async (ctx, { params, query }) => listThreadsView(ctx, params.id, query),
  }),
  defineOperation({
    operationId: 'createCommunityThread',
    tool: 'create_community_thread',
    summary: 'Starts a thread as the creator (Pro)',
    tags,
    method: 'POST',
    path: '/memberships/{id}/threads',
    auth: 'key',
    plan: 'tier3',
    get params() {
      return schemas().idParams;
    },
    get body() {
      return schemas().threadCreateBody;
    },
    get output() {
      return schemas().threadSchema;
    },
    status: 201,
    handler: async (ctx, { params, body }) => createThreadView(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'getCommunityThread',
    tool: 'get_community_thread',
    summary: 'One thread with a page of its replies, oldest first (hidden ones included); limit and cursor page the replies',
    tags,
    method: 'GET',
    path: '/memberships/{id}/threads/{threadId}',
    auth: 'key',
    get params() {
      return schemas().threadParams;
    },
    get query() {
      return schemas().pageQuery;
    },
    get output() {
      return schemas().threadDetailSchema;
    },
    handler: async (ctx, { params, query }) => readThreadView(ctx, params.id, params.threadId, query),
  }),
  defineOperation({
    operationId: 'moderateCommunityThread',
    tool: 'moderate_community_thread',
    summary: 'Hides, locks or pins a thread (or undoes it); hidden threads vanish for members',
    tags,
    method: 'PATCH',
    path: '/memberships/{id}/threads/{threadId}',
    auth: 'key',
    get params() {
      return schemas().threadParams;
    },
    get body() {
      return schemas().threadModerateBody;
    },
    get output() {
      return schemas().threadSchema;
    },
    handler: async (ctx, { params, body }) => moderateThreadView(ctx, params.id, params.threadId, body),
  }),
  defineOperation({
    operationId: 'deleteCommunityThread',
    tool: 'delete_community_thread',
    summary: 'Deletes a thread and its replies',
    tags,
    method: 'DELETE',
    path: '/memberships/{id}/threads/{threadId}',
    auth: 'key',
    get params() {
      return schemas().threadParams;
    },
    get output() {
      return schemas().deletedSchema;
    },
    handler: async (ctx, { params }) => deleteThreadView(ctx, params.id, params.threadId),
  }),
  defineOperation({
    operationId: 'createCommunityReply',
    tool: 'create_community_reply',
    summary: 'Replies to a thread as the creator (Pro; also in locked threads)',
    tags,
    method: 'POST',
    path: '/memberships/{id}/threads/{threadId}/replies',
    auth: 'key',
    plan: 'tier3',
    get params() {
      return schemas().threadParams;
    },
    get body() {
      return schemas().replyCreateBody;
    },
    get output() {
      return schemas().replySchema;
    },
    status: 201,
    handler: async (ctx, { params, body }) => createReplyView(ctx, params.id, params.threadId, body),
  }),
  defineOperation({
    operationId: 'moderateCommunityReply',
    tool: 'moderate_community_reply',
    summary: 'Hides or shows a reply; the thread replyCount counts visible replies only',
    tags,
    method: 'PATCH',
    path: '/memberships/{id}/threads/{threadId}/replies/{replyId}',
    auth: 'key',
    get params() {
      return schemas().replyParams;
    },
    get body() {
      return schemas().replyModerateBody;
    },
    get output() {
      return schemas().replySchema;
    },
    handler: async (ctx, { params, body }) => moderateReplyView(ctx, params.id, params.threadId, params.replyId, body),
  }),
  defineOperation({
    operationId: 'deleteCommunityReply',
    tool: 'delete_community_reply',
    summary: 'Deletes a reply',
    tags,
    method: 'DELETE',
    path: '/memberships/{id}/threads/{threadId}/replies/{replyId}',
    auth: 'key',
    get params() {
      return schemas().replyParams;
    },
    get output() {
      return schemas().deletedSchema;
    },
    handler: async (ctx, { params }) => deleteReplyView(ctx, params.id, params.threadId, params.replyId),
  }),
  defineOperation({
    operationId: 'banMember',
    tool: 'ban_member',
    summary: "Bans an author from all the creator's communities (this mode); hideContent hides everything they wrote",
    description:
      'A banned person is refused in the member area of every membership and cannot write. Hiding runs after the answer (a consumer walks what they wrote).',
    tags,
    method: 'POST',
    path: '/memberships/members/ban',
    auth: 'key',
    get body() {
      return schemas().banBody;
    },
    get output() {
      return schemas().banSchema;
    },
    handler: async (ctx, { body }) => banMember(ctx, body),
  }),
  defineOperation({
    operationId: 'unbanMember',
    tool: 'unban_member',
    summary: 'Lifts a ban (content hidden by the ban stays hidden until unhidden one by one)',
    tags,
    method: 'POST',
    path: '/memberships/members/unban',
    auth: 'key',
    get body() {
      return schemas().unbanBody;
    },
    get output() {
      return schemas().unbanSchema;
    },
    handler: async (ctx, { body }) => unbanMember(ctx, body),
  }),
];
