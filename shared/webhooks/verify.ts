import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Receiver-side check of a delivery, for sellers' own services (and our tests' receivers).
 * Pass the raw body exactly as received, before any JSON parsing.
 */
export interface VerifyWebhookInput {
  rawBody: string | Uint8Array;
  /** Request headers; any letter case. Node's IncomingHttpHeaders, a plain object or a Headers. */
  headers: Record<string, string | string[] | undefined> | Headers;
  /** The endpoint's signing secret; several are accepted while a receiver switches secrets. */
  secret: string | string[];
  /** Largest accepted distance between `t` and now, in seconds (spec: 5 minutes). */
  toleranceSeconds?: number;
  /** Current time in epoch milliseconds (`Date.now()` in a receiver; explicit so tests can pin it). */
  now: number;
  /**
   * Accept a delivery that has only the legacy X-Service-Signature header. Off by default: every
   * delivery carries V2, and a V1-only check does not cover the timestamp. When a V2 header is
   * present it is always the one checked, so a forged V2 can never fall back to V1.
   */
  allowLegacy?: boolean;
}

export type VerifyWebhookResult = { ok: true; version: 'v2' | 'v1'; timestamp: number; eventId?: string; eventType?: string } | { ok: false; reason: string };

export const DEFAULT_TOLERANCE_SECONDS = 300;

function header(headers: VerifyWebhookInput['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

const hmac = (secret: string, data: Buffer) => createHmac('sha256', secret).update(data).digest();

function matches(expected: Buffer, hex: string): boolean {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const given = Buffer.from(hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function verifyWebhook(input: VerifyWebhookInput): VerifyWebhookResult {
  const body = typeof input.rawBody === 'string' ? Buffer.from(input.rawBody, 'utf8') : Buffer.from(input.rawBody);
  const secrets = (Array.isArray(input.secret) ? input.secret : [input.secret]).filter(Boolean);
  if (!secrets.length) return { ok: false, reason: 'no secret configured' };
  const nowMs = input.now;
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const eventId = header(input.headers, 'x-service-event-id');
  const eventType = header(input.headers, 'x-service-event');

  const v2 = header(input.headers, 'x-service-signature-v2');
  if (v2 !== undefined) {
    let t: number | undefined;
    const signatures: string[] = [];
    for (const part of v2.split(',')) {
      const [key, ...rest] = part.trim().split('=');
      const value = rest.join('=');
      if (key === 't' && /^\d+$/.test(value)) t = Number(value);
      if (key === 'v1') signatures.push(value);
    }
    if (t === undefined || !signatures.length) return { ok: false, reason: 'malformed X-Service-Signature-V2 header' };
    if (Math.abs(nowMs / 1000 - t) > tolerance) return { ok: false, reason: 'timestamp outside the tolerance' };
    const signed = Buffer.concat([Buffer.from(`${t}.`, 'utf8'), body]);
    for (const secret of secrets) {
      const expected = hmac(secret, signed);
      if (signatures.some((s) => matches(expected, s))) return { ok: true, version: 'v2', timestamp: t, eventId, eventType };
    }
    return { ok: false, reason: 'signature mismatch' };
  }

  const v1 = header(input.headers, 'x-service-signature');
  if (v1 === undefined) return { ok: false, reason: 'no signature header' };
  if (!input.allowLegacy) return { ok: false, reason: 'only a legacy signature; V2 required' };
  // V1 signs the body only: the timestamp header is a secondary freshness check, and the
  // receiver must deduplicate on the event id to stop replays.
  const sentMs = Number(header(input.headers, 'x-service-timestamp'));
  if (!Number.isFinite(sentMs) || Math.abs(nowMs - sentMs) > tolerance * 1000) return { ok: false, reason: 'timestamp outside the tolerance' };
  for (const secret of secrets) {
    if (matches(hmac(secret, body), v1)) return { ok: true, version: 'v1', timestamp: Math.floor(sentMs / 1000), eventId, eventType };
  }
  return { ok: false, reason: 'signature mismatch' };
}
