import type * as z from '../platform/zod';
import { defineOperation } from '../platform/operation';
import { createMemberPost, deleteMemberPost, listMemberPosts, readMemberPost, updateMemberPost } from './posts/service';
import { communityOperations } from './community/operations';
import { memberAreaOperations } from './member-area/operations';
import { type MembershipSchemas, membershipSchemas as schemas } from './schemas';
import { archiveMembership, createMembership, listMembershipMembers, listMembershipViews, readMembership, reopenMembership, updateMembership } from './service';

const tags = ['Memberships'];

// Editing needs Pro; switching community or post emails off (or only archiving) stays open.
const updatePlan = (body: z.infer<MembershipSchemas['membershipUpdateBody']> | undefined) =>
  body &&
  (body.name !== undefined ||
    body.offerIds !== undefined ||
    body.productIds !== undefined ||
    body.productBuyersJoin === true ||
    body.communityEnabled === true ||
    body.postEmailsEnabled === true)
    ? ('tier3' as const)
    : undefined;

export const membershipOperations = [
  defineOperation({
    operationId: 'listMemberships',
    tool: 'list_memberships',
    summary: "Memberships of the key's mode, newest first",
    tags,
    method: 'GET',
    path: '/memberships',
    auth: 'key',
    get query() {
      return schemas().membershipListQuery;
    },
    get output() {
      return schemas().membershipList;
    },
    handler: async (ctx, { query }) => listMembershipViews(ctx, query),
  }),
  defineOperation({
    operationId: 'createMembership',
    tool: 'create_membership',
    summary:
      'Creates a membership for subscribers of offerIds, with productIds included (their buyers join only with productBuyersJoin) (Pro); existing live subscribers join',
    tags,
    method: 'POST',
    path: '/memberships',
    auth: 'key',
    plan: 'tier3',
    get body() {
      return schemas().membershipCreateBody;
    },
    get output() {
      return schemas().membershipSchema;
    },
    status: 201,
    handler: async (ctx, { body }) => createMembership(ctx, body),
  }),
  defineOperation({
    operationId: 'getMembership',
    tool: 'get_membership',
    summary: 'One membership with its active member count',
    tags,
    method: 'GET',
    path: '/memberships/{id}',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().membershipSchema;
    },
    handler: async (ctx, { params }) => readMembership(ctx, params.id),
  }),
  defineOperation({
    operationId: 'updateMembership',
    tool: 'update_membership',
    summary: 'Partial update: name, offers, products (Pro); community and post emails on/off (turning on needs Pro)',
    description:
      'Changing offers or products re-derives the members: those left without a live source leave with reason membership_changed, live subscribers of added offers join.',
    tags,
    method: 'PATCH',
    path: '/memberships/{id}',
    auth: 'key',
    planFor: ({ body }) => updatePlan(body),
    get params() {
      return schemas().idParams;
    },
    get body() {
      return schemas().membershipUpdateBody;
    },
    get output() {
      return schemas().membershipSchema;
    },
    handler: async (ctx, { params, body }) => updateMembership(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'archiveMembership',
    tool: 'archive_membership',
    summary: 'Archives a membership: every active member leaves with reason membership_closed',
    tags,
    method: 'POST',
    path: '/memberships/{id}/archive',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().membershipSchema;
    },
    handler: async (ctx, { params }) => archiveMembership(ctx, params.id),
  }),
  defineOperation({
    operationId: 'reopenMembership',
    tool: 'reopen_membership',
    summary: 'Reopens an archived membership: live subscribers of its offers join again',
    tags,
    method: 'POST',
    path: '/memberships/{id}/reopen',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get output() {
      return schemas().membershipSchema;
    },
    handler: async (ctx, { params }) => reopenMembership(ctx, params.id),
  }),
  defineOperation({
    operationId: 'listMembershipMembers',
    tool: 'list_membership_members',
    summary: 'Members by email: status (active, ended), q (email or name), page or cursor; counts per status',
    tags,
    method: 'GET',
    path: '/memberships/{id}/members',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get query() {
      return schemas().membersQuery;
    },
    get output() {
      return schemas().membersPageSchema;
    },
    handler: async (ctx, { params, query }) => listMembershipMembers(ctx, params.id, query),
  }),
  defineOperation({
    operationId: 'listMemberPosts',
    tool: 'list_member_posts',
    summary: 'Posts of a membership, newest first (pinned first within a page); status filters',
    tags,
    method: 'GET',
    path: '/memberships/{id}/posts',
    auth: 'key',
    get params() {
      return schemas().idParams;
    },
    get query() {
      return schemas().postListQuery;
    },
    get output() {
      return schemas().postPageSchema;
    },
    handler: async (ctx, { params, query }) => listMemberPosts(ctx, ctx.scope, params.id, query),
  }),
  defineOperation({
    operationId: 'createMemberPost',
    tool: 'create_member_post',
    summary: 'Writes a members-only post (Pro); published with notify, each active member is emailed once',
    description:
      'HTML is sanitised. notifyState goes pending, sending, sent; notifiedCount counts members emailed (unsubscribed and suppressed addresses are left out).',
    tags,
    method: 'POST',
    path: '/memberships/{id}/posts',
    auth: 'key',
    plan: 'tier3',
    get params() {
      return schemas().idParams;
    },
    get body() {
      return schemas().postCreateBody;
    },
    get output() {
      return schemas().postSchema;
    },
    status: 201,
    handler: async (ctx, { params, body }) => createMemberPost(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'getMemberPost',
    tool: 'get_member_post',
    summary: 'One post of a membership',
    tags,
    method: 'GET',
    path: '/memberships/{id}/posts/{postId}',
    auth: 'key',
    get params() {
      return schemas().postParams;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params }) => readMemberPost(ctx, params.id, params.postId),
  }),
  defineOperation({
    operationId: 'updateMemberPost',
    tool: 'update_member_post',
    summary: 'Edits or publishes a post (Pro); pin, unpin and back to draft are open to every plan',
    tags,
    method: 'PATCH',
    path: '/memberships/{id}/posts/{postId}',
    auth: 'key',
    planFor: ({ body }) =>
      body && (body.title !== undefined || body.html !== undefined || body.status === 'published' || body.notify === true) ? 'tier3' : undefined,
    get params() {
      return schemas().postParams;
    },
    get body() {
      return schemas().postUpdateBody;
    },
    get output() {
      return schemas().postSchema;
    },
    handler: async (ctx, { params, body }) => updateMemberPost(ctx, params.id, params.postId, body),
  }),
  defineOperation({
    operationId: 'deleteMemberPost',
    tool: 'delete_member_post',
    summary: 'Deletes a post (409 while its notification is being sent)',
    tags,
    method: 'DELETE',
    path: '/memberships/{id}/posts/{postId}',
    auth: 'key',
    get params() {
      return schemas().postParams;
    },
    get output() {
      return schemas().postDeletedSchema;
    },
    handler: async (ctx, { params }) => deleteMemberPost(ctx, params.id, params.postId),
  }),
  ...communityOperations,
];

/**
 * Every operation of the capability: the manifest's list, and the one its API function bundles
 * (build.operations), so that function carries no consumer, worker or privacy part.
 */
export const allMembershipOperations = [...membershipOperations, ...memberAreaOperations];
