import { defineOperation } from '../platform/operation';
import {
  countOutput,
  createBody,
  deletedSchema,
  idParams,
  listOutput,
  listQuery,
  previewBody,
  previewOutput,
  segmentSchema,
  subscribersOutput,
  subscribersQuery,
  updateBody,
} from './schemas';
import {
  createSegment,
  deleteSegment,
  evaluate,
  listSegmentPage,
  readSegment,
  segmentMembersPage,
  SEGMENTS_PLAN,
  updateSegment,
  validDefinition,
} from './service';
import { countSegment } from './counting';

const tags = ['Segments'];
const plan = SEGMENTS_PLAN;

// Creating, editing and previewing need Growth; reading, counting and deleting stay open (spec:
// reading and deleting generally stay available on any plan).
export const segmentOperations = [
  defineOperation({
    operationId: 'listSegments',
    tool: 'list_segments',
    summary: 'Saved segments, newest first; `page`, `pageSize` (up to 100)',
    tags,
    method: 'GET',
    path: '/newsletters/segments',
    auth: 'key',
    query: listQuery,
    output: listOutput,
    handler: async (ctx, { query }) => listSegmentPage(ctx, query.page, query.pageSize),
  }),
  defineOperation({
    operationId: 'createSegment',
    tool: 'create_segment',
    summary: 'Saves a rule set (`definition`), optionally with a `smartTag` applied nightly to its members; 409 when the tag belongs to another segment',
    tags,
    method: 'POST',
    path: '/newsletters/segments',
    auth: 'key',
    plan,
    body: createBody,
    output: segmentSchema,
    status: 201,
    handler: async (ctx, { body }) => createSegment(ctx, body),
  }),
  defineOperation({
    operationId: 'previewSegment',
    tool: 'preview_segment',
    summary: 'Counts the subscribed contacts a definition selects and shows 5 of them',
    tags,
    method: 'POST',
    path: '/newsletters/segments/preview',
    auth: 'key',
    plan,
    body: previewBody,
    output: previewOutput,
    handler: async (ctx, { body }) => {
      const result = await evaluate(ctx, ctx.scope, validDefinition(body.definition), { sample: 5 });
      return { ...result, sample: result.sample.map((c) => ({ _id: c._id, email: c.email, name: c.name })) };
    },
  }),
  defineOperation({
    operationId: 'getSegment',
    tool: 'get_segment',
    summary: 'One segment with its definition and smart tag',
    tags,
    method: 'GET',
    path: '/newsletters/segments/{id}',
    auth: 'key',
    params: idParams,
    output: segmentSchema,
    handler: async (ctx, { params }) => readSegment(ctx, ctx.scope, params.id),
  }),
  defineOperation({
    operationId: 'updateSegment',
    tool: 'update_segment',
    summary: 'Edits name, description, definition or smart tag (a replaced smart tag is taken back from the contacts it was added to)',
    tags,
    method: 'POST',
    path: '/newsletters/segments/{id}',
    auth: 'key',
    plan,
    params: idParams,
    body: updateBody,
    output: segmentSchema,
    handler: async (ctx, { params, body }) => updateSegment(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'deleteSegment',
    tool: 'delete_segment',
    summary: 'Deletes a segment; its smart tag is taken back from the contacts it added it to',
    tags,
    method: 'DELETE',
    path: '/newsletters/segments/{id}',
    auth: 'key',
    params: idParams,
    output: deletedSchema,
    handler: async (ctx, { params }) => {
      const segment = await deleteSegment(ctx, params.id);
      return { _id: segment._id, deleted: true as const };
    },
  }),
  defineOperation({
    operationId: 'getSegmentCount',
    tool: 'get_segment_count',
    summary: 'Live count of the subscribed contacts in the segment',
    tags,
    method: 'GET',
    path: '/newsletters/segments/{id}/count',
    auth: 'key',
    params: idParams,
    output: countOutput,
    handler: async (ctx, { params }) => {
      const { segment, evaluation } = await countSegment(ctx, ctx.scope, params.id);
      return { _id: segment._id, ...evaluation };
    },
  }),
  defineOperation({
    operationId: 'listSegmentSubscribers',
    tool: 'list_segment_subscribers',
    summary: 'Subscribed contacts in the segment, evaluated now; cursor pagination with `limit` and `after`',
    tags,
    method: 'GET',
    path: '/newsletters/segments/{id}/subscribers',
    auth: 'key',
    params: idParams,
    query: subscribersQuery,
    output: subscribersOutput,
    handler: async (ctx, { params, query }) => {
      const page = await segmentMembersPage(ctx, ctx.scope, params.id, { limit: query.limit, cursor: query.after });
      return { data: page.contacts, nextCursor: page.cursor ?? null };
    },
  }),
];
