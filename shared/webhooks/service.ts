import { isKnownEventType } from '../events/catalog';
import { sampleEventData, typesWithSamples } from '../events/samples';
import type { Deps, OperationContext } from '../platform/context';
import { badRequest, conflict, notFound } from '../platform/errors';
import { objectId, randomHex } from '../platform/ids';
import type { Scope } from '../store/keys';
import { enqueueDelivery, newDelivery, secretContext } from './delivery';
import { buildDeliveryBody } from './payload';
import { MAX_ENDPOINTS_PER_MODE, LOG_RETENTION_SECONDS, type WebhookAttempt, type WebhookEndpoint } from './records';
import * as repo from './repository';
import { checkWebhookUrl } from './url-policy';

export const loopbackAllowed = (deps: Pick<Deps, 'config'>) => deps.config.WEBHOOK_ALLOW_LOOPBACK === '1';

/** What reads answer: never the secret, not even its ciphertext. */
export const publicEndpoint = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description,
  active: endpoint.active,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.updatedAt,
});

export const publicAttempt = (attempt: WebhookAttempt) => ({
  ...attempt,
  expiresAt: new Date(Date.parse(attempt.createdAt) + LOG_RETENTION_SECONDS * 1000).toISOString(),
});

function validUrl(deps: Deps, url: string): string {
  const verdict = checkWebhookUrl(url, { allowLoopback: loopbackAllowed(deps) });
  if (!verdict.ok) throw badRequest(verdict.reason, { field: 'url', code: 'INVALID_WEBHOOK_URL' });
  return url;
}

function validEvents(events: string[]): string[] {
  const unknown = events.find((type) => !isKnownEventType(type));
  if (unknown !== undefined) throw badRequest(`events: "${unknown}" is not a known event type`, { field: 'events', code: 'UNKNOWN_EVENT_TYPE' });
  return [...new Set(events)];
}

const newSecret = () => randomHex(24);

export async function createWebhook(ctx: OperationContext, input: { url: string; events: string[]; description?: string; active?: boolean }) {
  const url = validUrl(ctx, input.url);
  const events = validEvents(input.events);
  const existing = await repo.listEndpoints(ctx.store, ctx.scope);
  if (existing.length >= MAX_ENDPOINTS_PER_MODE) {
    throw conflict(`At most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode`, 'WEBHOOK_LIMIT', { limit: MAX_ENDPOINTS_PER_MODE });
  }
  const id = objectId(ctx.clock);
  const secret = newSecret();
  const now = ctx.clock.now().toISOString();
  const endpoint: WebhookEndpoint = {
    id,
    url,
    events,
    description: input.description ?? null,
    active: input.active ?? true,
    secretCiphertext: await ctx.ports.encryption.encrypt(secret, secretContext(ctx.scope, id)),
    createdAt: now,
    updatedAt: now,
  };
  if (!(await repo.putEndpoint(ctx.store, ctx.scope, endpoint, MAX_ENDPOINTS_PER_MODE))) {
    throw conflict(`At most ${MAX_ENDPOINTS_PER_MODE} webhook endpoints per mode`, 'WEBHOOK_LIMIT', { limit: MAX_ENDPOINTS_PER_MODE });
  }
  return { ...publicEndpoint(endpoint), secret };
}

export async function listWebhooks(ctx: OperationContext) {
  const endpoints = await repo.listEndpoints(ctx.store, ctx.scope);
  return { webhooks: endpoints.map(publicEndpoint) };
}

async function mustGet(deps: Deps, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await repo.getEndpoint(deps.store, scope, id);
  if (!endpoint) throw notFound('Webhook');
  return endpoint;
}

export async function getWebhook(ctx: OperationContext, id: string) {
  return publicEndpoint(await mustGet(ctx, ctx.scope, id));
}

export async function updateWebhook(
  ctx: OperationContext,
  id: string,
  input: { url?: string; events?: string[]; description?: string | null; active?: boolean },
) {
  const change: Partial<WebhookEndpoint> = { updatedAt: ctx.clock.now().toISOString() };
  if (input.url !== undefined) change.url = validUrl(ctx, input.url);
  if (input.events !== undefined) change.events = validEvents(input.events);
  if (input.description !== undefined) change.description = input.description;
  if (input.active !== undefined) change.active = input.active;
  const updated = await repo.updateEndpoint(ctx.store, ctx.scope, id, change);
  if (!updated) throw notFound('Webhook');
  return publicEndpoint(updated);
}

export async function deleteWebhook(ctx: OperationContext, id: string) {
  if (!(await repo.deleteEndpoint(ctx.store, ctx.scope, id))) throw notFound('Webhook');
  return { id, deleted: true as const };
}

/** The old secret stops signing at once: every attempt reads the current one. */
export async function rotateSecret(ctx: OperationContext, id: string) {
  await mustGet(ctx, ctx.scope, id);
  const secret = newSecret();
  const updated = await repo.updateEndpoint(ctx.store, ctx.scope, id, {
    secretCiphertext: await ctx.ports.encryption.encrypt(secret, secretContext(ctx.scope, id)),
    updatedAt: ctx.clock.now().toISOString(),
  });
  if (!updated) throw notFound('Webhook');
  return { ...publicEndpoint(updated), secret };
}

function mustBeActive(endpoint: WebhookEndpoint) {
  if (!endpoint.active) throw conflict('The webhook endpoint is inactive; activate it first', 'WEBHOOK_INACTIVE');
}

/**
 * A test delivery carries a complete sample of the event type's data, built by the same payload
 * builders as real events (shared/events/samples.ts), marked `test: true`.
 */
export async function sendTestDelivery(ctx: OperationContext, id: string, input: { type?: string } | undefined) {
  const endpoint = await mustGet(ctx, ctx.scope, id);
  mustBeActive(endpoint);
  let type = input?.type;
  if (type !== undefined && !isKnownEventType(type))
    throw badRequest(`type: "${type}" is not a known event type`, { field: 'type', code: 'UNKNOWN_EVENT_TYPE' });
  const sampled = new Set(typesWithSamples());
  type ??= endpoint.events.find((t) => sampled.has(t)) ?? 'order.completed';
  const data = sampleEventData(type, ctx.clock, ctx.config.PUBLIC_BASE_URL ?? ctx.request.baseUrl);
  if (!data)
    throw badRequest(`type: "${type}" is not emitted by this deployment, so it has no sample; choose one of ${[...sampled].join(', ')}`, {
      field: 'type',
      code: 'NO_SAMPLE_FOR_TYPE',
    });
  const event = { id: objectId(ctx.clock), type, created: Math.floor(ctx.clock.nowMs() / 1000), data };
  const body = buildDeliveryBody(event, endpoint.id, { test: true });
  const delivery = newDelivery(ctx, {
    id: `${event.id}_${endpoint.id}`,
    webhookId: endpoint.id,
    eventId: event.id,
    eventType: type,
    body,
    test: true,
    redelivery: false,
  });
  await repo.createDelivery(ctx.store, ctx.scope, delivery);
  await enqueueDelivery(ctx, ctx.scope, delivery);
  return { deliveryId: delivery.id, webhookId: endpoint.id, eventId: event.id, type, test: true };
}

export async function listDeliveredWebhooks(
  ctx: OperationContext,
  query: { webhookId?: string; eventId?: string; eventType?: string; status?: 'success' | 'failed'; limit: number; after?: string; cursor?: string },
) {
  const { limit, after, cursor, ...filters } = query;
  const page = await repo.listAttempts(ctx.store, ctx.scope, filters, limit, cursor ?? after);
  const next = page.hasMore ? (page.next ?? null) : null;
  return { deliveries: page.items.map(publicAttempt), hasMore: page.hasMore, next, nextCursor: next };
}

/** A replay is a new attempt chain with the same event id and the same body bytes. */
export async function redeliver(ctx: OperationContext, attemptId: string) {
  const attempt = await repo.getAttempt(ctx.store, ctx.scope, attemptId);
  if (!attempt) throw notFound('Delivery');
  const endpoint = await repo.getEndpoint(ctx.store, ctx.scope, attempt.webhookId);
  if (!endpoint) throw notFound('Webhook');
  mustBeActive(endpoint);
  const delivery = newDelivery(ctx, {
    id: `${attempt.eventId}_${endpoint.id}_${objectId(ctx.clock)}`,
    webhookId: endpoint.id,
    eventId: attempt.eventId,
    eventType: attempt.eventType,
    body: attempt.requestBody,
    test: attempt.test,
    redelivery: true,
  });
  await repo.createDelivery(ctx.store, ctx.scope, delivery);
  await enqueueDelivery(ctx, ctx.scope, delivery);
  return { deliveryId: delivery.id, webhookId: endpoint.id, eventId: attempt.eventId, type: attempt.eventType, test: attempt.test };
}
