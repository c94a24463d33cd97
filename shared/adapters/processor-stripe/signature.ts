import { createHmac, timingSafeEqual } from 'node:crypto';

/** Stripe's own default tolerance for the signature's timestamp. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Verifies a `Stripe-Signature` header as Stripe documents it
 * (https://docs.stripe.com/webhooks#verify-manually): `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`
 * (other schemes, such as `v0`, are ignored); the expected signature is the hex HMAC-SHA256 of
 * `${t}.${rawBody}` keyed with the endpoint's signing secret, compared in constant time with
 * every v1 (several while a secret is being rolled). The timestamp must be within the tolerance of
 * `nowMs` in either direction (the SDK only refuses old ones; a signature from the future is as
 * suspect as a stale one).
 */
export function verifyStripeSignature(input: { payload: string; header: string | undefined; secret: string; nowMs: number; toleranceSeconds?: number }): SignatureCheck {
  const tolerance = input.toleranceSeconds ?? STRIPE_SIGNATURE_TOLERANCE_SECONDS;
  if (!input.header) return { ok: false, reason: 'missing Stripe-Signature header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of input.header.split(',')) {
    const at = part.indexOf('=');
    if (at < 1) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't') timestamp = /^\d{1,12}$/.test(value) ? Number(value) : Number.NaN;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || Number.isNaN(timestamp)) return { ok: false, reason: 'malformed Stripe-Signature header (no t=<timestamp>)' };
  if (signatures.length === 0) return { ok: false, reason: 'no v1 signature in the Stripe-Signature header' };
  const expected = createHmac('sha256', input.secret).update(`${timestamp}.${input.payload}`, 'utf8').digest();
  // Every candidate is compared (no early exit), each in constant time on equal-length buffers.
  let matched = false;
  for (const signature of signatures) {
    const candidate = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : undefined;
    if (candidate && candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'no signature matches the payload (is the signing secret right, and the raw body unchanged?)' };
  const ageSeconds = Math.floor(input.nowMs / 1000) - timestamp;
  if (Math.abs(ageSeconds) > tolerance) return { ok: false, reason: `timestamp outside the tolerance zone (${ageSeconds} s from now; at most ${tolerance} s)` };
  return { ok: true };
}
