import { createHash } from 'node:crypto';
import type { Deps, RequestInfo } from '../context';
import { badRequest, conflict } from '../errors';
import { keys, type Scope } from '../../store/keys';
import { ConditionFailed } from '../../store/store';
import { TABLE } from '../../store/table';
import type { APIGatewayProxyStructuredResultV2 as ApiResult } from 'aws-lambda';

/**
 * `Idempotency-Key` on POST requests, as Stripe has it. The first request with a key claims it
 * (one conditional write) and its answer is stored under the key; a retry with the same key and
 * the same request gets that answer again without the work being redone; the same key with a
 * different request, or while the first is still running, answers 409. Keys live 24 hours (TTL).
 *
 * Why not Powertools idempotency: its records sit under one static partition per function, with no
 * tenant scope; here every key starts with the account+mode scope like all tenant data, so one
 * account's key can never answer another's request, and the layer is the same in Lambda and locally.
 */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
/** A crashed first request frees its key after this long; a retry then does the work. */
const LOCK_SECONDS = 60;
/** Answers bigger than this are not kept (DynamoDB items stop at 400 KB); the key is freed. */
const MAX_STORED_BODY = 300_000;
/** Headers worth replaying; the request id and capacity meter belong to each request. */
const REPLAYED_HEADERS = ['content-type', 'location', 'retry-after'];

const ENTITY = 'IdempotencyKey';

interface StoredKey {
  fingerprint: string;
  status: 'in_progress' | 'complete';
  lockedUntilMs: number;
  expiresAt: number;
  answer?: { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean };
}

/** The key of a request that uses one, after checking its shape; undefined when it has none. */
export function idempotencyKeyOf(info: RequestInfo): string | undefined {
  const key = info.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw badRequest('Idempotency-Key must be 1 to 255 printable ASCII characters without spaces', { code: 'idempotency_key_invalid' });
  return key;
}

/** The request a key stands for: method, path and the exact body bytes. */
const fingerprintOf = (info: RequestInfo) => createHash('sha256').update(`${info.method} ${info.path}\n${info.rawBody}`).digest('hex');

/** Runs `run` once per (scope, key), replaying its answer to retries of the same request. */
export async function withIdempotencyKey(deps: Deps, scope: Scope, key: string, info: RequestInfo, run: () => Promise<ApiResult>): Promise<ApiResult> {
  const itemKey = keys.idempotency(scope, key);
  const fingerprint = fingerprintOf(info);
  const nowMs = deps.clock.nowMs();
  const claim: StoredKey = {
    fingerprint,
    status: 'in_progress',
    lockedUntilMs: nowMs + LOCK_SECONDS * 1000,
    expiresAt: Math.floor(nowMs / 1000) + IDEMPOTENCY_RETENTION_SECONDS,
  };
  try {
    // Free, expired (TTL deletes late), or held by a request that died: take it.
    await deps.store.put(
      { ...itemKey, entity: ENTITY, ...claim },
      {
        condition: 'attribute_not_exists(PK) OR #ttl < :nowSeconds OR (#status = :inProgress AND lockedUntilMs < :nowMs)',
        names: { '#ttl': TABLE.ttlAttribute, '#status': 'status' },
        values: { ':nowSeconds': Math.floor(nowMs / 1000), ':inProgress': 'in_progress', ':nowMs': nowMs },
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    const held = await deps.store.get<StoredKey>(itemKey, { consistent: true });
    if (!held) throw conflict('This Idempotency-Key was just released; retry the request', 'idempotency_key_in_progress');
    if (held.fingerprint !== fingerprint) {
      throw conflict('This Idempotency-Key was already used with a different request (method, path or body); use a new key', 'idempotency_key_reused');
    }
    if (held.status !== 'complete' || !held.answer)
      throw conflict('A request with this Idempotency-Key is still in progress; retry later', 'idempotency_key_in_progress');
    return { ...held.answer, headers: { ...held.answer.headers, 'idempotent-replayed': 'true' } };
  }

  let answer: ApiResult;
  try {
    answer = await run();
  } catch (error) {
    await deps.store.delete(itemKey).catch(() => undefined);
    throw error;
  }
  const status = answer.statusCode ?? 200;
  const body = typeof answer.body === 'string' ? answer.body : '';
  // A 5xx did not do what was asked (or cannot say so): the retry should try again, not replay it.
  if (status >= 500 || body.length > MAX_STORED_BODY) {
    await deps.store.delete(itemKey).catch(() => undefined);
    return answer;
  }
  const headers = Object.fromEntries(
    Object.entries(answer.headers ?? {})
      .filter(([name]) => REPLAYED_HEADERS.includes(name.toLowerCase()))
      .map(([n, v]) => [n, String(v)]),
  );
  const stored: StoredKey = {
    ...claim,
    status: 'complete',
    answer: { statusCode: status, headers, body, ...(answer.isBase64Encoded ? { isBase64Encoded: true } : {}) },
  };
  await deps.store.put({ ...itemKey, entity: ENTITY, ...stored });
  return answer;
}
