import { randomUUID } from 'node:crypto';

/**
 * Our own transport to Stripe's v1 API (the `stripe` SDK is ~241 KiB minified, cannot be
 * tree-shaken, and would ride in every function that has the processor port). It does what the
 * SDK did for the adapter: form encoding, auth, a pinned API version, idempotency keys, a timeout,
 * and Stripe's documented retry rules (https://docs.stripe.com/error-handling, "retries").
 */

/**
 * The API version the request and response types were generated for: the one the installed
 * `stripe` package pins (`Stripe.API_VERSION`; a unit test keeps the two equal on upgrades).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';
export const STRIPE_API_URL = 'https://api.stripe.com';
const USER_AGENT = 'creator-commerce (own Stripe v1 client; node)';

export interface StripeHttpOptions {
  secretKey: string;
  /** Another API origin (tests: a fake Stripe on 127.0.0.1). Only its origin is used, as before. */
  apiUrl?: string;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 2. */
  maxRetries?: number;
  /** Backoff: initial × 2^retry, capped, jittered to [½, 1] of that, never below initial. */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
}

export interface StripeRequestOptions {
  /** Sent on POSTs (and DELETEs when given); every retry of the request reuses it. */
  idempotencyKey?: string;
}

export type StripeMethod = 'GET' | 'POST' | 'DELETE';

/**
 * Any failure of a Stripe call: an error answer (`{ error: { type, code, ... } }`) or, after the
 * retries, no answer at all (`type: 'api_connection_error'`, no status).
 */
export class StripeApiError extends Error {
  override readonly name = 'StripeApiError';
  /** Stripe's error type: `card_error`, `invalid_request_error`, `api_error`, `idempotency_error`, ... */
  readonly type: string;
  readonly code: string | undefined;
  readonly declineCode: string | undefined;
  readonly param: string | undefined;
  readonly statusCode: number | undefined;
  readonly requestId: string | undefined;

  constructor(input: { message: string; type: string; code?: string; declineCode?: string; param?: string; statusCode?: number; requestId?: string; cause?: unknown }) {
    super(input.message, input.cause === undefined ? undefined : { cause: input.cause });
    this.type = input.type;
    this.code = input.code;
    this.declineCode = input.declineCode;
    this.param = input.param;
    this.statusCode = input.statusCode;
    this.requestId = input.requestId;
  }
}

/** Like encodeURIComponent, plus what `qs` escapes; brackets stay readable (Stripe accepts both). */
const encodePart = (value: string) =>
  encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%5B/g, '[')
    .replace(/%5D/g, ']');

/**
 * Stripe's form encoding, as the SDK writes it: nested objects as `a[b][c]=v`, arrays indexed
 * (`a[0][b]=v`), undefined skipped, null and '' sent empty (Stripe's "unset"), dates as Unix
 * seconds, booleans and numbers as text. Empty objects and arrays send nothing.
 */
export function encodeForm(params: object | undefined): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === undefined) return;
    if (value === null || typeof value !== 'object' || value instanceof Date) {
      const text = value instanceof Date ? String(Math.floor(value.getTime() / 1000)) : value === null ? '' : String(value);
      pairs.push(`${encodePart(key)}=${encodePart(text)}`);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => add(`${key}[${index}]`, item));
      return;
    }
    for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
  };
  for (const [key, value] of Object.entries(params ?? {})) add(key, value);
  return pairs.join('&');
}

/**
 * Whether to try again (the SDK's rules, plus 429 which Stripe's rate-limit guide says to retry
 * with backoff): the `Stripe-Should-Retry` header decides when present; else 409 (lock timeouts),
 * 429 and 5xx are retried, any other status is final. `status` undefined: no answer (network).
 */
export function shouldRetry(status: number | undefined, shouldRetryHeader: string | null): boolean {
  if (status === undefined) return true;
  if (shouldRetryHeader === 'false') return false;
  if (shouldRetryHeader === 'true') return true;
  return status === 409 || status === 429 || status >= 500;
}

export function retryDelayMs(retry: number, initialMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(initialMs * 2 ** retry, maxMs);
  return Math.max(initialMs, ceiling * 0.5 * (1 + random()));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StripeErrorBody {
  error?: { type?: string; code?: string; decline_code?: string; message?: string; param?: string };
}

export class StripeHttp {
  private readonly origin: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly initialRetryDelayMs: number;
  private readonly maxRetryDelayMs: number;

  constructor(private readonly options: StripeHttpOptions) {
    this.origin = new URL(options.apiUrl || STRIPE_API_URL).origin;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.initialRetryDelayMs = options.initialRetryDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 5_000;
  }

  /** One Stripe call: parameters in the query for GET and DELETE, in a form body for POST. */
  async request<T>(method: StripeMethod, path: string, params?: object, options: StripeRequestOptions = {}): Promise<T> {
    const form = encodeForm(params);
    const url = `${this.origin}${path}${method !== 'POST' && form ? `?${form}` : ''}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${this.options.secretKey}`,
      'stripe-version': STRIPE_API_VERSION,
      'user-agent': USER_AGENT,
    };
    // As the SDK does: every POST is keyed, so a retry after a lost answer cannot act twice.
    const idempotencyKey = options.idempotencyKey ?? (method === 'POST' ? `cc-retry-${randomUUID()}` : undefined);
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    const body = method === 'POST' ? form : undefined;

    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < this.maxRetries;
      let response: Response;
      let text: string;
      try {
        // The timeout covers the answer's body too: a stalled body is a failed attempt.
        response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        text = await response.text();
      } catch (error) {
        if (canRetry) {
          await sleep(retryDelayMs(attempt, this.initialRetryDelayMs, this.maxRetryDelayMs));
          continue;
        }
        const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        throw new StripeApiError({
          type: 'api_connection_error',
          message: timedOut
            ? `Stripe did not answer ${method} ${path} within ${this.timeoutMs} ms (${attempt + 1} attempts)`
            : `Could not reach Stripe for ${method} ${path} (${attempt + 1} attempts): ${error instanceof Error ? error.message : String(error)}`,
          cause: error,
        });
      }
      const requestId = response.headers.get('request-id') ?? undefined;
      if (response.ok) {
        try {
          return JSON.parse(text) as T;
        } catch (error) {
          throw new StripeApiError({ type: 'api_error', message: `Stripe answered ${method} ${path} with a body that is not JSON`, statusCode: response.status, requestId, cause: error });
        }
      }
      if (canRetry && shouldRetry(response.status, response.headers.get('stripe-should-retry'))) {
        await sleep(retryDelayMs(attempt, this.initialRetryDelayMs, this.maxRetryDelayMs));
        continue;
      }
      throw errorOf(method, path, response.status, requestId, text);
    }
  }
}

function errorOf(method: string, path: string, status: number, requestId: string | undefined, text: string): StripeApiError {
  let body: StripeErrorBody | undefined;
  try {
    body = JSON.parse(text) as StripeErrorBody;
  } catch {
    body = undefined;
  }
  const error = body?.error;
  return new StripeApiError({
    type: error?.type ?? 'api_error',
    code: error?.code,
    declineCode: error?.decline_code,
    param: error?.param,
    message: error?.message ?? `Stripe answered ${method} ${path} with HTTP ${status}`,
    statusCode: status,
    requestId,
  });
}
