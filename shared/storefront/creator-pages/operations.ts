import { defineOperation } from '../../platform/operation';
import { deletedSchema, idParams } from '../schemas';
import { creatorLinkSchema, creatorPageSchema, linkBody, updateCreatorPageBody, updateLinkBody } from './schemas';
import { addCreatorLink, deleteCreatorLink, getCreatorPage, updateCreatorLink, updateCreatorPage } from './service';

export const creatorPageOperations = [
  defineOperation({
    operationId: 'getCreatorPage',
    tool: 'get_creator_page',
    summary: "The creator page of the account in the key's mode (made empty on first read)",
    tags: ['Creator pages'],
    method: 'GET',
    path: '/creator-pages',
    auth: 'key',
    output: creatorPageSchema,
    handler: async (ctx) => getCreatorPage(ctx, ctx.scope),
  }),
  defineOperation({
    operationId: 'updateCreatorPage',
    tool: 'update_creator_page',
    summary: "Change the creator page's title, bio or avatar; only the fields sent change",
    tags: ['Creator pages'],
    method: 'POST',
    path: '/creator-pages',
    auth: 'key',
    body: updateCreatorPageBody,
    output: creatorPageSchema,
    handler: async (ctx, { body }) => updateCreatorPage(ctx, ctx.scope, body),
  }),
  defineOperation({
    operationId: 'createCreatorPageLink',
    tool: 'create_creator_page_link',
    summary: 'Add a link to the creator page',
    tags: ['Creator pages'],
    method: 'POST',
    path: '/creator-pages/links',
    auth: 'key',
    body: linkBody,
    output: creatorLinkSchema,
    status: 201,
    handler: async (ctx, { body }) => addCreatorLink(ctx, ctx.scope, body),
  }),
  defineOperation({
    operationId: 'updateCreatorPageLink',
    tool: 'update_creator_page_link',
    summary: 'Change a creator page link',
    tags: ['Creator pages'],
    method: 'PUT',
    path: '/creator-pages/links/{id}',
    auth: 'key',
    params: idParams,
    body: updateLinkBody,
    output: creatorLinkSchema,
    handler: async (ctx, { params, body }) => updateCreatorLink(ctx, ctx.scope, params.id, body),
  }),
  defineOperation({
    operationId: 'deleteCreatorPageLink',
    tool: 'delete_creator_page_link',
    summary: 'Remove a creator page link',
    tags: ['Creator pages'],
    method: 'DELETE',
    path: '/creator-pages/links/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      await deleteCreatorLink(ctx, ctx.scope, params.id);
      return { _id: params.id, deleted: true as const };
    },
  }),
];
