import { defineOperation, reply } from '../platform/operation';
import {
  apiKeyBody,
  apiKeyListAnswer,
  apiKeyParams,
  createdApiKeyAnswer,
  magicLinkAnswer,
  magicLinkBody,
  meAnswer,
  revokedApiKeyAnswer,
  sessionAnswer,
  sessionBody,
} from './schemas';
import { createKey, exchangeLink, listKeys, readSession, requestMagicLink, revokeKey, signOut } from './service';

// Sign-in is the dashboard's door: the two public routes take no key (like /team/join); `me` and
// sign-out are open to any session (`Dashboard sign-in` maps to `any` in AREA_BY_TAG).
const signInTags = ['Dashboard sign-in'];
// Keys are the developer area (AREA_BY_TAG), and on top of that owners' and admins' only (service).
const keyTags = ['API keys'];

export const dashboardOperations = [
  defineOperation({
    operationId: 'requestDashboardMagicLink',
    summary: 'Mails a one-time sign-in link (valid 15 minutes) to a store owner or team member',
    description:
      'Always answers 202 `{ sent: true }`, whether or not the address belongs to anyone, so the answer never tells who has an account. ' +
      'At most 5 links per address in 15 minutes: 429 SIGN_IN_RATE_LIMITED with Retry-After.',
    tags: signInTags,
    method: 'POST',
    path: '/dashboard/auth/magic-link',
    auth: 'public',
    body: magicLinkBody,
    output: magicLinkAnswer,
    status: 202,
    handler: async (ctx, { body }) => requestMagicLink(ctx, body.email),
  }),
  defineOperation({
    operationId: 'createDashboardSession',
    summary: 'Exchanges a sign-in link for one API session token per store and mode the person can reach (12 hours)',
    description:
      'The account owner gets both modes of each store they own; a team member each mode where they are an active member. ' +
      'A link works once: 410 LINK_USED when used, 410 LINK_EXPIRED after 15 minutes, 400 INVALID_LINK when unknown or altered.',
    tags: signInTags,
    method: 'POST',
    path: '/dashboard/auth/session',
    auth: 'public',
    body: sessionBody,
    output: sessionAnswer,
    handler: async (ctx, { body }) => exchangeLink(ctx, body.token),
  }),
  defineOperation({
    operationId: 'getDashboardSession',
    noTool: 'about the dashboard sign-in in use; an agent holds an API key, which this answers 400 NOT_A_SESSION',
    summary: 'The store, mode, role and areas of the session token in use, and when it expires',
    description: '400 NOT_A_SESSION for an API key (keys are not dashboard sessions).',
    tags: signInTags,
    area: 'any',
    method: 'GET',
    path: '/dashboard/auth/me',
    auth: 'key',
    unmetered: true,
    output: meAnswer,
    handler: async (ctx) => readSession(ctx),
  }),
  defineOperation({
    operationId: 'signOutDashboard',
    noTool: 'ends the dashboard sign-in in use; an agent holds an API key, which this answers 400 NOT_A_SESSION',
    summary: 'Signs out: every token of this sign-in (every store and mode) stops working at once',
    description: '400 NOT_A_SESSION for an API key.',
    tags: signInTags,
    area: 'any',
    method: 'POST',
    path: '/dashboard/auth/sign-out',
    auth: 'key',
    status: 204,
    handler: async (ctx) => {
      await signOut(ctx);
      return reply(204, undefined);
    },
  }),
  defineOperation({
    operationId: 'listApiKeys',
    tool: 'list_api_keys',
    summary: "The store's API keys of the caller's mode, revoked ones included (never the secrets)",
    description: 'Owners and admins only (403 ROLE_FORBIDDEN for other members).',
    tags: keyTags,
    method: 'GET',
    path: '/api-keys',
    auth: 'key',
    output: apiKeyListAnswer,
    handler: async (ctx) => listKeys(ctx),
  }),
  defineOperation({
    operationId: 'createApiKey',
    tool: 'create_api_key',
    summary: "Creates an API key of the caller's mode; the secret `key` is in this answer only, never again",
    description: 'Owners and admins only (403 ROLE_FORBIDDEN). At most 50 keys per mode that are not revoked: 409 KEY_LIMIT.',
    tags: keyTags,
    method: 'POST',
    path: '/api-keys',
    auth: 'key',
    body: apiKeyBody,
    output: createdApiKeyAnswer,
    status: 201,
    handler: async (ctx, { body }) => createKey(ctx, body.name),
  }),
  defineOperation({
    operationId: 'revokeApiKey',
    tool: 'revoke_api_key',
    summary: 'Revokes an API key: it stops authenticating at once (a revoked key never comes back)',
    description: "Owners and admins only (403 ROLE_FORBIDDEN). 404 for a key of another mode or store. Revoking twice answers the first revocation's time.",
    tags: keyTags,
    method: 'DELETE',
    path: '/api-keys/{id}',
    auth: 'key',
    params: apiKeyParams,
    output: revokedApiKeyAnswer,
    handler: async (ctx, { params }) => revokeKey(ctx, params.id),
  }),
];
