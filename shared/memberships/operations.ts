import * as z from 'zod';
import { defineOperation } from '../platform/operation';
import { idParams, membersPageSchema, membersQuery, membershipCreateBody, membershipListQuery, membershipSchema, membershipUpdateBody } from './schemas';
import { archiveMembership, createMembership, listMembershipMembers, listMembershipViews, readMembership, reopenMembership, updateMembership } from './service';

const tags = ['Memberships'];

// Editing needs Pro; switching community or post emails off (or only archiving) stays open.
const updatePlan = (body: z.infer<typeof membershipUpdateBody> | undefined) =>
  body && (body.name !== undefined || body.offerIds !== undefined || body.productIds !== undefined || body.communityEnabled === true || body.postEmailsEnabled === true)
    ? ('tier3' as const)
    : undefined;

export const membershipOperations = [
  defineOperation({
    operationId: 'listMemberships',
    tool: 'list_memberships',
    summary: 'Memberships of the key\'s mode, newest first',
    tags,
    method: 'GET',
    path: '/memberships',
    auth: 'key',
    query: membershipListQuery,
    output: z.array(membershipSchema),
    handler: async (ctx, { query }) => listMembershipViews(ctx, query),
  }),
  defineOperation({
    operationId: 'createMembership',
    tool: 'create_membership',
    summary: 'Creates a membership for subscribers of offerIds and buyers of productIds (Pro); existing live subscribers join',
    tags,
    method: 'POST',
    path: '/memberships',
    auth: 'key',
    plan: 'tier3',
    body: membershipCreateBody,
    output: membershipSchema,
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
    params: idParams,
    output: membershipSchema,
    handler: async (ctx, { params }) => readMembership(ctx, params.id),
  }),
  defineOperation({
    operationId: 'updateMembership',
    tool: 'update_membership',
    summary: 'Partial update: name, offers, products (Pro); community and post emails on/off (turning on needs Pro)',
    description: 'Changing offers or products re-derives the members: those left without a live source leave with reason membership_changed, live subscribers of added offers join.',
    tags,
    method: 'PATCH',
    path: '/memberships/{id}',
    auth: 'key',
    planFor: ({ body }) => updatePlan(body),
    params: idParams,
    body: membershipUpdateBody,
    output: membershipSchema,
    handler: async (ctx, { params, body }) => updateMembership(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'archiveMembership',
    summary: 'Archives a membership: every active member leaves with reason membership_closed',
    tags,
    method: 'POST',
    path: '/memberships/{id}/archive',
    auth: 'key',
    params: idParams,
    output: membershipSchema,
    handler: async (ctx, { params }) => archiveMembership(ctx, params.id),
  }),
  defineOperation({
    operationId: 'reopenMembership',
    summary: 'Reopens an archived membership: live subscribers of its offers join again',
    tags,
    method: 'POST',
    path: '/memberships/{id}/reopen',
    auth: 'key',
    params: idParams,
    output: membershipSchema,
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
    params: idParams,
    query: membersQuery,
    output: membersPageSchema,
    handler: async (ctx, { params, query }) => listMembershipMembers(ctx, params.id, query),
  }),
];
