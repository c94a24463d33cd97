import { defineOperation, rawReply } from '../platform/operation';
import { joinedPage, joinPage, refusedPage } from './pages';
import {
  activityAnswer,
  activityQuery,
  canceledSchema,
  deletedSchema,
  idParams,
  inviteAnswer,
  inviteBody,
  joinBody,
  joinQuery,
  memberChangeBody,
  memberSchema,
  teamAnswer,
  teamBody,
  teamChangeBody,
  teamSchema,
} from './schemas';
import { acceptInvite, checkJoinToken } from './join';
import { cancelInvite, inviteMember, readActivity, readTeam, resendInvite } from './service';
import { createTeam, deleteTeam, removeMember, updateMember, updateTeam } from './members';

// Team management is the store's administration: the `Team` tag gives every operation here the
// `admin` access level (owners and admins only; see shared/platform/permissions.ts).
const tags = ['Team'];
const html = (status: number, body: string) =>
  rawReply(status, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });

export const teamOperations = [
  defineOperation({
    operationId: 'getTeam',
    tool: 'list_team_members',
    summary: 'Members (the account owner first), open invites, teams and seat usage',
    tags,
    method: 'GET',
    path: '/team',
    auth: 'key',
    output: teamAnswer,
    handler: async (ctx) => readTeam(ctx),
  }),
  defineOperation({
    operationId: 'listTeamActivity',
    tool: 'list_team_activity',
    summary: 'Activity log, newest first: team changes and every write made through the API, with actor, action, target and time',
    description: '`before` is the `nextBefore` of the previous page (an entry id) or an ISO 8601 time; `limit` 1 to 100 (default 50).',
    tags,
    method: 'GET',
    path: '/team/activity',
    auth: 'key',
    query: activityQuery,
    output: activityAnswer,
    handler: async (ctx, { query }) => readActivity(ctx, query),
  }),
  defineOperation({
    operationId: 'inviteTeamMember',
    tool: 'invite_team_member',
    summary: 'Invites a person by email; the mail carries an accept link valid 7 days',
    description:
      '409 ALREADY_INVITED / ALREADY_MEMBER (emails compared lower-cased), 403 SEAT_LIMIT with details.limit, used, pending, 429 INVITE_RATE_LIMITED after 20 invites in an hour, 403 ROLE_FORBIDDEN when a non-owner invites an owner.',
    tags,
    method: 'POST',
    path: '/team/invites',
    auth: 'key',
    plan: 'tier2',
    body: inviteBody,
    output: inviteAnswer,
    status: 201,
    handler: async (ctx, { body }) => inviteMember(ctx, body),
  }),
  defineOperation({
    operationId: 'resendTeamInvite',
    tool: 'resend_team_invite',
    summary: 'Sends a new accept link valid 7 more days (once a minute, 5 times per invite); older links stop working',
    tags,
    method: 'POST',
    path: '/team/invites/{id}/resend',
    auth: 'key',
    plan: 'tier2',
    params: idParams,
    output: inviteAnswer,
    handler: async (ctx, { params }) => resendInvite(ctx, params.id),
  }),
  defineOperation({
    operationId: 'cancelTeamInvite',
    tool: 'cancel_team_invite',
    summary: 'Cancels an open invite: its link stops working and its seat is freed',
    tags,
    method: 'DELETE',
    path: '/team/invites/{id}',
    auth: 'key',
    params: idParams,
    output: canceledSchema,
    handler: async (ctx, { params }) => cancelInvite(ctx, params.id),
  }),
  defineOperation({
    operationId: 'updateTeamMember',
    tool: 'update_team_member',
    summary: "Changes a member's role, teams or status (active, suspended)",
    description: 'Only owners give or change the owner role (403 ROLE_FORBIDDEN); the store keeps at least one active owner (409 LAST_OWNER).',
    tags,
    method: 'PATCH',
    path: '/team/members/{id}',
    auth: 'key',
    plan: 'tier2',
    params: idParams,
    body: memberChangeBody,
    output: memberSchema,
    handler: async (ctx, { params, body }) => updateMember(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'removeTeamMember',
    tool: 'remove_team_member',
    summary: 'Removes a member: their session tokens stop working at once and their seat is freed',
    tags,
    method: 'DELETE',
    path: '/team/members/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => removeMember(ctx, params.id),
  }),
  defineOperation({
    operationId: 'createTeam',
    tool: 'create_team',
    summary: 'Creates a team with the areas its members may work in',
    description: 'Areas: products, orders, emails, marketing, analytics, developers.',
    tags,
    method: 'POST',
    path: '/team/teams',
    auth: 'key',
    plan: 'tier2',
    body: teamBody,
    output: teamSchema,
    status: 201,
    handler: async (ctx, { body }) => createTeam(ctx, body),
  }),
  defineOperation({
    operationId: 'updateTeam',
    tool: 'update_team',
    summary: "Renames a team or changes its areas; its members' access follows at once",
    tags,
    method: 'PATCH',
    path: '/team/teams/{id}',
    auth: 'key',
    plan: 'tier2',
    params: idParams,
    body: teamChangeBody,
    output: teamSchema,
    handler: async (ctx, { params, body }) => updateTeam(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'deleteTeam',
    tool: 'delete_team',
    summary: 'Deletes a team; its members keep their other teams',
    tags,
    method: 'DELETE',
    path: '/team/teams/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => deleteTeam(ctx, params.id),
  }),
  defineOperation({
    operationId: 'teamJoinPage',
    summary: 'The accept page an invite mail links to (public, signed token)',
    tags,
    method: 'GET',
    path: '/team/join',
    auth: 'public',
    query: joinQuery,
    handler: async (ctx, { query }) => {
      const check = await checkJoinToken(ctx, query.token);
      if (!check.ok) {
        const refused = refusedPage(check.reason);
        return html(refused.status, refused.html);
      }
      return html(200, joinPage({ email: check.invite.email, role: check.invite.role, token: query.token }));
    },
  }),
  defineOperation({
    operationId: 'teamJoin',
    summary: 'Form post of the accept page: joins the team and signs the new member in to the dashboard (303 to a one-time sign-in link)',
    tags,
    method: 'POST',
    path: '/team/join',
    auth: 'public',
    // The accept page's form posts URL-encoded (two text fields): no multipart parser to bundle.
    bodyType: 'json-or-form',
    body: joinBody,
    handler: async (ctx, { body }) => {
      const result = await acceptInvite(ctx, body.token, body.name, ctx.request.baseUrl);
      if (!result.ok) {
        const refused = refusedPage(result.reason);
        return html(refused.status, refused.html);
      }
      if (!('member' in result)) return html(500, '');
      // Into the dashboard, signed in; the page says where it goes for a client that does not follow.
      return rawReply(303, joinedPage({ email: result.member.email, signInUrl: result.signInUrl }), 'text/html; charset=utf-8', {
        location: result.signInUrl,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      });
    },
  }),
];
