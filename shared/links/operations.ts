import { defineOperation, rawReply, reply } from '../platform/operation';
import { linkCodeParams, linkCreateBody, linkDeletedSchema, linkIdParams, linkListQuery, linkListSchema, linkSchema } from './schemas';
import { createLink, deleteLink, followLink, listLinks, readLink } from './service';

const notFoundPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Link not found</title></head><body><h1>This link does not exist</h1></body></html>';

export const linkOperations = [
  defineOperation({
    operationId: 'listTrackedLinks',
    tool: 'list_tracked_links',
    summary: 'Tracked links, newest first, by cursor pages (`limit` up to 100, `after` = nextCursor)',
    tags: ['Links'],
    method: 'GET',
    path: '/links',
    auth: 'key',
    query: linkListQuery,
    output: linkListSchema,
    handler: async (ctx, { query }) => listLinks(ctx, query),
  }),
  defineOperation({
    operationId: 'createTrackedLink',
    tool: 'create_tracked_link',
    summary: 'Creates a tracked short link for a channel',
    description:
      "Share `url`. Each visit counts a click (and a unique visitor the first time) and redirects to `targetUrl` with `tl=<code>` added. Pass that value as `metadata.trackedLink` when creating the checkout session, and the sale is attributed to the link's channel in the attribution report.",
    tags: ['Links'],
    method: 'POST',
    path: '/links',
    auth: 'key',
    body: linkCreateBody,
    output: linkSchema,
    status: 201,
    handler: async (ctx, { body }) => createLink(ctx, body),
  }),
  defineOperation({
    operationId: 'getTrackedLink',
    tool: 'get_tracked_link',
    summary: 'One tracked link with its stats (`stats.locked` below Pro)',
    tags: ['Links'],
    method: 'GET',
    path: '/links/{id}',
    auth: 'key',
    params: linkIdParams,
    output: linkSchema,
    handler: async (ctx, { params }) => readLink(ctx, params.id),
  }),
  defineOperation({
    operationId: 'deleteTrackedLink',
    tool: 'delete_tracked_link',
    summary: 'Deletes a tracked link; its short address stops working, past stats stay in reports',
    tags: ['Links'],
    method: 'DELETE',
    path: '/links/{id}',
    auth: 'key',
    params: linkIdParams,
    output: linkDeletedSchema,
    handler: async (ctx, { params }) => deleteLink(ctx, params.id),
  }),
  defineOperation({
    operationId: 'followTrackedLink',
    summary: 'The public short address of a tracked link: counts the visit and redirects',
    tags: ['Links'],
    method: 'GET',
    path: '/l/{code}',
    auth: 'public',
    params: linkCodeParams,
    handler: async (ctx, { params }) => {
      const found = await followLink(ctx, params.code);
      if (!found) return rawReply(404, notFoundPage, 'text/html; charset=utf-8', { 'cache-control': 'no-store' });
      return reply(302, undefined, {
        location: found.location,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        ...(found.setCookie ? { 'set-cookie': found.setCookie } : {}),
      });
    },
  }),
];
