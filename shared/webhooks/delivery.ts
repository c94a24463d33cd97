import { isDeliverableEventType } from '../events/catalog';
import type { DomainEvent } from '../platform/events';
import type { Deps } from '../platform/context';
import { objectId } from '../platform/ids';
import { logger } from '../platform/logger';
import type { Scope } from '../store/keys';
import { buildDeliveryBody } from './payload';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, type DeliveryMessage, type WebhookAttempt, type WebhookDelivery, type WebhookEndpoint } from './records';
import * as repo from './repository';
import { deliveryHeaders } from './signing';
import { attemptDelivery } from './transport';
import { cachedEndpoints } from './endpoint-cache';

/** Binds a secret's ciphertext to its endpoint: moved to another record, it no longer decrypts. */
export const secretContext = (scope: Scope, webhookId: string): Record<string, string> => ({
  purpose: 'webhook-secret',
  accountId: scope.accountId,
  mode: scope.mode,
  webhookId,
});

/** Longer than an attempt (5 s) plus its bookkeeping, shorter than the queue's visibility timeout. */
const CLAIM_LEASE_MS = 20_000;

const allowLoopback = (deps: Deps) => deps.config.WEBHOOK_ALLOW_LOOPBACK === '1';

export function newDelivery(
  deps: Pick<Deps, 'clock'>,
  fields: Pick<WebhookDelivery, 'id' | 'webhookId' | 'eventId' | 'eventType' | 'body' | 'test' | 'redelivery'>,
): WebhookDelivery {
  const now = deps.clock.now().toISOString();
  return { ...fields, status: 'pending', attempts: 0, nextAttemptAt: null, createdAt: now, updatedAt: now };
}

/**
 * Sends the message of an attempt. Nothing records that it was sent: whoever retries after a
 * crash (the bus retrying the fan-out, the queue redelivering the previous attempt's message)
 * sends it again, and the worker's attempt check and claim make a second copy harmless.
 * `create` carries the whole record on a fan-out's first message: the worker's claim creates it.
 */
export async function enqueueDelivery(
  deps: Deps,
  scope: Scope,
  delivery: Pick<WebhookDelivery, 'id' | 'webhookId'>,
  attempt = 1,
  delaySeconds = 0,
  create?: WebhookDelivery,
  body?: string,
): Promise<void> {
  const message: DeliveryMessage = {
    scope,
    deliveryId: delivery.id,
    webhookId: delivery.webhookId,
    attempt,
    ...(create ? { create } : {}),
    ...(body !== undefined ? { body } : {}),
  };
  await deps.ports.queue.send('webhooks', message as unknown as Record<string, unknown>, { delaySeconds });
}

export const fanOutDeliveryId = (eventId: string, webhookId: string) => `${eventId}_${webhookId}`;

/**
 * A body up to this size rides in the queue message (SQS takes 256 KiB per message); a larger one
 * is written to the table by the fan-out first, as every delivery once was.
 */
const MAX_BODY_IN_MESSAGE = 128 * 1024;

/**
 * Bus consumer step: one delivery per active endpoint of the event's account and mode that
 * subscribes to its type. Safe to run any number of times for the same event: the delivery id is
 * derived from the event and the endpoint, and the worker's claim creates its record once.
 */
export async function fanOutEvent(deps: Deps, event: DomainEvent): Promise<number> {
  if (!isDeliverableEventType(event.type)) return 0;
  const scope: Scope = { accountId: event.accountId, mode: event.mode };
  const endpoints = (await endpointsOf(deps, scope)).filter((endpoint) => endpoint.active && endpoint.events.includes(event.type));
  await Promise.all(
    endpoints.map(async (endpoint) => {
      const body = buildDeliveryBody(event, endpoint.id);
      const delivery = newDelivery(deps, {
        id: fanOutDeliveryId(event.id, endpoint.id),
        webhookId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        body,
        test: false,
        redelivery: false,
      });
      if (Buffer.byteLength(body) <= MAX_BODY_IN_MESSAGE) {
        // The record the claim creates leaves the body out: every message carries it instead.
        const { body: _inMessage, ...record } = delivery;
        return enqueueDelivery(deps, scope, delivery, 1, 0, record, body);
      }
      if (!(await repo.createDelivery(deps.store, scope, delivery))) {
        // An earlier run created it. If no attempt is recorded yet, that run may have died before
        // sending the message: send it (again). A copy is dropped by the worker.
        const existing = await repo.getDelivery(deps.store, scope, delivery.id);
        if (!existing || existing.status !== 'pending' || existing.attempts > 0) return;
      }
      await enqueueDelivery(deps, scope, delivery);
    }),
  );
  return endpoints.length;
}

// Decrypted secrets by ciphertext: a rotation writes a new ciphertext, so a cached entry can
// never sign with a replaced secret.
/** The tenant's endpoints through the per-process cache (see endpoint-cache.ts for the bound). */
const endpointsOf = (deps: Deps, scope: Scope) => cachedEndpoints(deps.store, scope, () => repo.listEndpoints(deps.store, scope));

const secretCache = new Map<string, string>();
async function secretOf(deps: Deps, scope: Scope, endpoint: WebhookEndpoint): Promise<string> {
  const cached = secretCache.get(endpoint.secretCiphertext);
  if (cached) return cached;
  const secret = await deps.ports.encryption.decrypt(endpoint.secretCiphertext, secretContext(scope, endpoint.id));
  if (secretCache.size > 1000) secretCache.clear();
  secretCache.set(endpoint.secretCiphertext, secret);
  return secret;
}

/** Seconds from now until `iso`, never negative; fractional (SQS rounds to whole seconds). */
const secondsUntil = (deps: Deps, iso: string) => Math.max(0, (Date.parse(iso) - deps.clock.nowMs()) / 1000);

/** The record a fan-out message carries, when it has every field a delivery needs (else none). */
const parseCreate = (value: unknown, deliveryId: string): WebhookDelivery | undefined => {
  if (!value || typeof value !== 'object') return undefined;
  const d = value as Record<string, unknown>;
  const strings = ['id', 'webhookId', 'eventId', 'eventType', 'createdAt'].every((field) => typeof d[field] === 'string');
  if (!strings || d.id !== deliveryId || typeof d.test !== 'boolean' || typeof d.redelivery !== 'boolean') return undefined;
  if (d.body !== undefined && typeof d.body !== 'string') return undefined;
  return {
    id: d.id as string,
    webhookId: d.webhookId as string,
    eventId: d.eventId as string,
    eventType: d.eventType as string,
    // An older fan-out's message kept the body in the record.
    ...(typeof d.body === 'string' ? { body: d.body } : {}),
    test: d.test as boolean,
    redelivery: d.redelivery as boolean,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: null,
    createdAt: d.createdAt as string,
    updatedAt: d.createdAt as string,
  };
};

const parseMessage = (message: Record<string, unknown>): DeliveryMessage | undefined => {
  const scope = message.scope as Scope | undefined;
  if (!scope || typeof scope.accountId !== 'string' || (scope.mode !== 'live' && scope.mode !== 'test')) return undefined;
  if (typeof message.deliveryId !== 'string' || typeof message.attempt !== 'number') return undefined;
  const webhookId = typeof message.webhookId === 'string' ? message.webhookId : undefined;
  const create = parseCreate(message.create, message.deliveryId);
  const body = typeof message.body === 'string' ? message.body : create?.body;
  return {
    scope: { accountId: scope.accountId, mode: scope.mode },
    deliveryId: message.deliveryId,
    webhookId,
    attempt: message.attempt,
    ...(create ? { create } : {}),
    ...(body !== undefined ? { body } : {}),
  };
};

/**
 * Queue worker step: make attempt `attempt` of a delivery, log it, and queue the next one when
 * the answer calls for a retry. Throws only when the state could not be saved or the next
 * message could not be sent; the queue then redelivers this message and the repeat finishes the
 * job (a recorded attempt is never made twice by the same message).
 */
export async function processDeliveryMessage(deps: Deps, raw: Record<string, unknown>): Promise<void> {
  const message = parseMessage(raw);
  if (!message) {
    logger.error('malformed webhook delivery message dropped', { message: JSON.stringify(raw).slice(0, 500) });
    return;
  }
  const { scope, deliveryId, attempt } = message;
  // The log entry's id is fixed before the claim, which lists it on the delivery (see claimAttempt).
  const attemptId = objectId(deps.clock);
  // The usual path: claim the attempt (one conditional write that returns the delivery) while the
  // endpoint comes from the per-process copy, so little stands between the message and the call.
  const [delivery, endpoints] = await Promise.all([
    repo.claimAttempt(deps.store, scope, deliveryId, attempt, attemptId, deps.clock.nowMs(), CLAIM_LEASE_MS, message.create),
    endpointsOf(deps, scope),
  ]);
  if (!delivery) {
    const current = await repo.getDelivery(deps.store, scope, deliveryId);
    if (!current || current.status !== 'pending') return;
    if (current.attempts >= attempt) {
      // This attempt is recorded. This copy of its message came back because the worker died
      // before sending the retry message, or it is a duplicate: send the retry (again) either way.
      if (current.attempts === attempt && current.nextAttemptAt) {
        await enqueueDelivery(deps, scope, current, attempt + 1, secondsUntil(deps, current.nextAttemptAt), undefined, message.body ?? current.body);
      }
      return;
    }
    if (attempt !== current.attempts + 1) return; // out of order: the real next message exists
    // Another copy of this message holds the attempt. Come back later (the queue redelivers):
    // by then it is recorded, or the other worker died and its claim has lapsed.
    throw new Error(`attempt ${attempt} of delivery ${deliveryId} is in progress elsewhere`);
  }

  let endpoint = endpoints.find((e) => e.id === delivery.webhookId);
  if (!endpoint || !endpoint.active) {
    // The copy may predate the endpoint's creation or reactivation: cancel only on a fresh read.
    endpoint = await repo.getEndpoint(deps.store, scope, delivery.webhookId);
    if (!endpoint || !endpoint.active) {
      await repo.cancelDelivery(deps.store, scope, deliveryId, deps.clock.now().toISOString());
      return;
    }
  }
  let headers: Record<string, string>;
  let result: Awaited<ReturnType<typeof attemptDelivery>>;
  let body: string;
  try {
    body = message.body ?? delivery.body ?? (await loggedBody(deps, scope, delivery));
    const secret = await secretOf(deps, scope, endpoint);
    headers = deliveryHeaders({ secret, body, eventType: delivery.eventType, eventId: delivery.eventId, nowMs: deps.clock.nowMs() });
    result = await attemptDelivery({ url: endpoint.url, body, headers, policy: { allowLoopback: allowLoopback(deps) }, nowMs: () => deps.clock.nowMs() });
  } catch (error) {
    await repo.releaseClaim(deps.store, scope, deliveryId, attempt);
    throw error;
  }

  // The retry spacing counts from the end of this attempt, not from when its bookkeeping is done.
  const attemptEndMs = deps.clock.nowMs();
  const willRetry = result.outcome === 'retry' && attempt < MAX_ATTEMPTS;
  const delaySeconds = willRetry ? RETRY_DELAYS_SECONDS[attempt - 1]! : 0;
  const nextAttemptAt = willRetry ? new Date(attemptEndMs + delaySeconds * 1000).toISOString() : null;
  const success = result.outcome === 'success';
  const record: WebhookAttempt = {
    id: attemptId,
    deliveryId,
    webhookId: endpoint.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    attempt,
    status: success ? 'success' : 'failed',
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error,
    url: endpoint.url,
    finalUrl: result.finalUrl,
    redirects: result.redirects,
    requestHeaders: headers,
    requestBody: body,
    responseBodyExcerpt: excerptToKeep(result.responseBodyExcerpt, success),
    willRetry,
    nextAttemptAt,
    test: delivery.test,
    redelivery: delivery.redelivery,
    createdAt: deps.clock.now().toISOString(),
  };
  const status = success ? 'succeeded' : willRetry ? 'pending' : 'failed';
  const recorded = await repo.recordAttempt(
    deps.store,
    scope,
    record,
    { status, nextAttemptAt, updatedAt: record.createdAt },
    { claimed: delivery, nowMs: () => deps.clock.nowMs() },
  );
  // Counted by a CloudWatch metric filter (delivery success rate on the dashboard): keep the message.
  logger.info('webhook attempt', { outcome: record.status, statusCode: record.statusCode, attempt, eventType: record.eventType, test: Boolean(record.test) });
  if (!recorded || !willRetry) return;
  await enqueueDelivery(deps, scope, delivery, attempt + 1, secondsUntil(deps, nextAttemptAt!), undefined, body);
}

/**
 * The answer of a successful attempt is rarely worth keeping whole, and the log entry costs one
 * write unit per KiB: a 2xx keeps its first 256 characters, a failure its first 2 KB (what a
 * seller needs to see why the receiver refused).
 */
export const SUCCESS_EXCERPT_CHARS = 256;
export const excerptToKeep = (excerpt: string | null, success: boolean): string | null =>
  excerpt === null || !success || excerpt.length <= SUCCESS_EXCERPT_CHARS ? excerpt : excerpt.slice(0, SUCCESS_EXCERPT_CHARS);

/**
 * The body when neither the message nor the record has it: a message sent before bodies rode in
 * every message. The first logged attempt has it byte for byte.
 */
async function loggedBody(deps: Deps, scope: Scope, delivery: WebhookDelivery): Promise<string> {
  for (const id of delivery.attemptIds ?? []) {
    const entry = await repo.getAttempt(deps.store, scope, id);
    if (entry) return entry.requestBody;
  }
  throw new Error(`delivery ${delivery.id} has no body to send`);
}
