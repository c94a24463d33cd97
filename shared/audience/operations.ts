import { defineOperation } from '../platform/operation';
import { contactSchema, createBody, deletedSchema, idParams, listOutput, listQuery, tagsBody, updateBody } from './schemas';
import { addTags, createContact, deleteContact, getContact, listContacts, removeTags, updateContact } from './service';

const tags = ['Newsletter subscribers'];

export const audienceOperations = [
  defineOperation({
    operationId: 'listNewsletterSubscribers',
    tool: 'list_newsletter_subscribers',
    summary: 'Newsletter contacts, newest first (email prefix `q` lists alphabetically); cursor pagination: `limit` and `cursor` (or `after`) → `nextCursor`',
    tags,
    method: 'GET',
    path: '/newsletters/subscribers',
    auth: 'key',
    query: listQuery,
    output: listOutput,
    handler: async (ctx, { query }) => {
      const page = await listContacts(
        ctx,
        ctx.scope,
        { status: query.status, tag: query.tag, q: query.q },
        { limit: query.limit, cursor: query.cursor ?? query.after },
      );
      return { data: page.contacts, nextCursor: page.cursor ?? null };
    },
  }),
  defineOperation({
    operationId: 'createNewsletterSubscriber',
    tool: 'create_newsletter_subscriber',
    summary: 'Adds a contact (source `api` unless given); an email that has one answers 409 SUBSCRIBER_EXISTS',
    tags,
    method: 'POST',
    path: '/newsletters/subscribers',
    auth: 'key',
    body: createBody,
    output: contactSchema,
    status: 201,
    handler: async (ctx, { body }) => createContact(ctx, ctx.scope, { ...body, source: body.source ?? 'api' }),
  }),
  defineOperation({
    operationId: 'getNewsletterSubscriber',
    tool: 'get_newsletter_subscriber',
    summary: 'One contact with its tags, consent and the facts segments use',
    tags,
    method: 'GET',
    path: '/newsletters/subscribers/{id}',
    auth: 'key',
    params: idParams,
    output: contactSchema,
    handler: async (ctx, { params }) => getContact(ctx, ctx.scope, params.id),
  }),
  defineOperation({
    operationId: 'updateNewsletterSubscriber',
    tool: 'update_newsletter_subscriber',
    summary: 'Edits name, country, consent or status (subscribed/unsubscribed); a suppressed address cannot be resubscribed (409 SUPPRESSED)',
    tags,
    method: 'PATCH',
    path: '/newsletters/subscribers/{id}',
    auth: 'key',
    params: idParams,
    body: updateBody,
    output: contactSchema,
    handler: async (ctx, { params, body }) => updateContact(ctx, ctx.scope, params.id, body),
  }),
  defineOperation({
    operationId: 'deleteNewsletterSubscriber',
    tool: 'delete_newsletter_subscriber',
    summary: 'Deletes a contact; a suppressed address stays on the suppression list',
    tags,
    method: 'DELETE',
    path: '/newsletters/subscribers/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      const contact = await deleteContact(ctx, ctx.scope, params.id);
      return { _id: contact._id, deleted: true as const };
    },
  }),
  defineOperation({
    operationId: 'addNewsletterSubscriberTags',
    tool: 'add_newsletter_subscriber_tags',
    summary: 'Adds exact-string tags to a contact',
    tags,
    method: 'POST',
    path: '/newsletters/subscribers/{id}/tags',
    auth: 'key',
    params: idParams,
    body: tagsBody,
    output: contactSchema,
    handler: async (ctx, { params, body }) => addTags(ctx, ctx.scope, params.id, body.tags),
  }),
  defineOperation({
    operationId: 'removeNewsletterSubscriberTags',
    tool: 'remove_newsletter_subscriber_tags',
    summary: 'Removes tags from a contact',
    tags,
    method: 'POST',
    path: '/newsletters/subscribers/{id}/tags/remove',
    auth: 'key',
    params: idParams,
    body: tagsBody,
    output: contactSchema,
    handler: async (ctx, { params, body }) => removeTags(ctx, ctx.scope, params.id, body.tags),
  }),
];
