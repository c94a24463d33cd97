import type { OperationContext } from '../platform/context';
import { notFound } from '../platform/errors';
import { isDeliverableEventType } from './catalog';
import { eventPayload } from './payload';
import * as repo from './repository';

/** The events of the caller's account and mode, newest first, as webhooks deliver them. */
export async function listEvents(ctx: OperationContext, query: { type?: string; limit: number; cursor?: string }) {
  const nowSeconds = Math.floor(ctx.clock.nowMs() / 1000);
  const page = await repo.listEvents(ctx.store, ctx.scope, { ...query, nowSeconds });
  return {
    // Internal event types never leave the service, here as in webhooks.
    events: page.events.filter((event) => isDeliverableEventType(event.type)).map(eventPayload),
    hasMore: page.cursor !== undefined,
    next: page.cursor ?? null,
    nextCursor: page.cursor ?? null,
  };
}

export async function getEvent(ctx: OperationContext, eventId: string) {
  const event = await repo.getEvent(ctx.store, ctx.scope, eventId, Math.floor(ctx.clock.nowMs() / 1000));
  if (!event || !isDeliverableEventType(event.type)) throw notFound('Event');
  return eventPayload(event);
}
