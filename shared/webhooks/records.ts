import type { Scope } from '../store/keys';

/** A seller's endpoint. The signing secret is kept only as ciphertext bound to this endpoint. */
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  active: boolean;
  secretCiphertext: string;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

/**
 * One event on its way to one endpoint: the unit of idempotency of the fan-out (its id is
 * derived from event id and endpoint id) and the state every queue message is checked against.
 */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  /**
   * The body, built once; every attempt signs and sends exactly these bytes. Kept on the record
   * only when no message carries it (a body over the message limit, a test delivery, a
   * redelivery); a fan-out's body rides in each attempt's message and in the log entry, so the
   * record stays small and each write to it costs one unit.
   */
  body?: string;
  test: boolean;
  redelivery: boolean;
  status: DeliveryStatus;
  /** Attempts finished and logged. */
  attempts: number;
  nextAttemptAt: string | null;
  /**
   * Ids of the log entries its attempts wrote (or were about to write: each claim adds the id
   * before the HTTP call, so an entry a crash left before the delivery moved on is still found).
   * The event filter of the log reads them.
   */
  attemptIds?: string[];
  /** The attempt a worker holds, and until when (epoch ms): set by each claim. */
  claimedAttempt?: number;
  claimUntil?: number;
  createdAt: string;
  updatedAt: string;
}

/** One row of the delivery log: one HTTP attempt. */
export interface WebhookAttempt {
  id: string;
  deliveryId: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  status: 'success' | 'failed';
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  url: string;
  finalUrl: string;
  redirects: number;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseBodyExcerpt: string | null;
  willRetry: boolean;
  nextAttemptAt: string | null;
  test: boolean;
  redelivery: boolean;
  createdAt: string;
}

/** The queue message: ids only; the worker re-reads the state it needs. */
export interface DeliveryMessage {
  scope: Scope;
  deliveryId: string;
  /** Lets the worker read the endpoint while it claims the attempt; the delivery is the truth. */
  webhookId?: string;
  attempt: number;
  /** On a fan-out's first message: the record the worker's claim creates if it is not there yet. */
  create?: WebhookDelivery;
  /** The body to send, on every message of a fan-out delivery (the record does not keep it). */
  body?: string;
}

export const MAX_ATTEMPTS = 3;
/** Delay before attempt 2 and attempt 3 (spec: about 1 s then 4 s). */
export const RETRY_DELAYS_SECONDS = [1, 4] as const;
export const LOG_RETENTION_SECONDS = 30 * 24 * 3600;
export const MAX_ENDPOINTS_PER_MODE = 50;
