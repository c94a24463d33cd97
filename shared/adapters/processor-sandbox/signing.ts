import { createHmac, timingSafeEqual } from 'node:crypto';
import { defineSetting } from '../../platform/settings';

/**
 * Signature of a processor notification: `t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<raw body>">`,
 * the same scheme our own webhooks use, so the raw bytes are what is signed and checked.
 *
 * The sandbox signs with its signing secret (SANDBOX_SIGNING_SECRET below). In a deployed stack it
 * is generated per deployment in Secrets Manager, so nobody outside the stack can post a
 * notification its ingress accepts. The local runtime uses the documented constant
 * SANDBOX_NOTIFICATION_SECRET, so a developer can replay notifications by hand; it is never a
 * deployed stack's secret. A live processor adapter brings its own secret.
 */
export const SANDBOX_NOTIFICATION_SECRET = 'sbx_whsec_3f1c9a6e2b7d48e0a5c4f9b2d7e61a08';

export const SANDBOX_SIGNING_SECRET = defineSetting({
  kind: 'secret',
  name: 'sandboxSigningSecret',
  variable: 'SANDBOX_SIGNING_SECRET',
  summary: 'HMAC secret the sandbox processor signs its notifications with, and the ingress verifies',
  localValue: SANDBOX_NOTIFICATION_SECRET,
});
export const SIGNATURE_HEADER = 'x-processor-signature';
export const TOLERANCE_SECONDS = 300;

export function sign(secret: string, timestamp: number, rawBody: string): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

export function verify(secret: string, header: string | undefined, rawBody: string, nowSeconds: number): VerifyResult {
  if (!header) return { ok: false, reason: 'missing signature header' };
  const parts = Object.fromEntries(
    header.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return { ok: false, reason: 'malformed signature header' };
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return { ok: false, reason: 'timestamp outside tolerance' };
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'), 'utf8');
  const given = Buffer.from(String(parts.v1), 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true };
}
