import { defineOperation } from '../platform/operation';
import { eventIdParams, eventListSchema, eventSchema, listEventsQuery } from './schemas';
import * as service from './service';

const tags = ['Events'];

export const eventOperations = [
  defineOperation({
    operationId: 'listEvents',
    tool: 'list_events',
    summary: 'List the events of this account and mode, newest first (kept 30 days)',
    description: 'Each event is the body its webhook delivery carries (without `webhookId`). Filter by `type`; page with `cursor`.',
    tags,
    method: 'GET',
    path: '/events',
    auth: 'key',
    query: listEventsQuery,
    output: eventListSchema,
    handler: (ctx, { query }) => service.listEvents(ctx, query),
  }),
  defineOperation({
    operationId: 'getEvent',
    tool: 'get_event',
    summary: 'One event of this account and mode',
    tags,
    method: 'GET',
    path: '/events/{id}',
    auth: 'key',
    params: eventIdParams,
    output: eventSchema,
    handler: (ctx, { params }) => service.getEvent(ctx, params.id),
  }),
];
