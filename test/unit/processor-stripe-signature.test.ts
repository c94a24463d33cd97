import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { verifyStripeSignature } from '../../shared/adapters/processor-stripe/signature';

/**
 * Our `Stripe-Signature` check cross-checked with the official SDK (a dev dependency): headers
 * made by `generateTestHeaderString`, verdicts compared with `constructEvent` on the same clock.
 */
const SECRET = 'whsec_test_signature_0000000000000000';
const NOW_MS = Date.parse('2026-11-23T09:00:00.000Z');
const NOW = Math.floor(NOW_MS / 1000);
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', livemode: true, data: { object: { id: 'in_1', note: 'café ✓' } } }, null, 2);

const header = (options: { timestamp?: number; secret?: string; body?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload: options.body ?? payload, secret: options.secret ?? SECRET, timestamp: options.timestamp ?? NOW });
const v1Of = (h: string) => /v1=([0-9a-f]+)/.exec(h)![1]!;

const ours = (h: string | undefined, body = payload) => verifyStripeSignature({ payload: body, header: h, secret: SECRET, nowMs: NOW_MS });
function sdkAccepts(h: string, body = payload): boolean {
  try {
    Stripe.webhooks.constructEvent(body, h, SECRET, 300, undefined, NOW_MS);
    return true;
  } catch {
    return false;
  }
}

describe('Stripe webhook signatures', () => {
  it('accepts what the SDK signs, as the SDK does, within the tolerance', () => {
    for (const timestamp of [NOW, NOW - 1, NOW - 299, NOW - 300, NOW + 30]) {
      const h = header({ timestamp });
      expect({ timestamp, ours: ours(h), sdk: sdkAccepts(h) }).toEqual({ timestamp, ours: { ok: true }, sdk: true });
    }
  });

  it('computes the same signature as the SDK (HMAC-SHA256 of "t.body", hex)', () => {
    const h = header();
    expect(v1Of(h)).toBe(createHmac('sha256', SECRET).update(`${NOW}.${payload}`).digest('hex'));
  });

  it('refuses a tampered body, a re-signed timestamp, or another secret, as the SDK does', () => {
    const h = header();
    const cases: [string, string, string][] = [
      ['tampered body', h, payload.replace('in_1', 'in_2')],
      ['reformatted body', h, JSON.stringify(JSON.parse(payload))],
      ['timestamp swapped under the same signature', h.replace(`t=${NOW}`, `t=${NOW - 1}`), payload],
      ['other secret', header({ secret: 'whsec_other' }), payload],
      ['uppercase hex', h.replace(/v1=([0-9a-f]+)/, (_, sig: string) => `v1=${sig.toUpperCase()}`), payload],
      ['truncated signature', h.slice(0, -2), payload],
    ];
    for (const [name, value, body] of cases) {
      expect({ name, ours: ours(value, body), sdk: sdkAccepts(value, body) }).toEqual({ name, ours: { ok: false, reason: expect.stringContaining('no signature matches') }, sdk: false });
    }
  });

  it('refuses a stale timestamp, as the SDK does, and a future one beyond the tolerance, which the SDK accepts', () => {
    const stale = header({ timestamp: NOW - 301 });
    expect(ours(stale)).toEqual({ ok: false, reason: expect.stringContaining('timestamp outside the tolerance zone') });
    expect(sdkAccepts(stale)).toBe(false);
    // A deliberate difference: the SDK only bounds the age; a signature from the future is refused here.
    const future = header({ timestamp: NOW + 301 });
    expect(ours(future)).toEqual({ ok: false, reason: expect.stringContaining('timestamp outside the tolerance zone') });
    expect(sdkAccepts(future)).toBe(true);
  });

  it('accepts any matching v1 among several (a rolled secret), ignoring other schemes', () => {
    const good = v1Of(header());
    const old = v1Of(header({ secret: 'whsec_old' }));
    for (const h of [`t=${NOW},v1=${old},v1=${good}`, `t=${NOW},v1=${good},v1=${old}`, `v0=${good},t=${NOW},v1=${good}`, `t=${NOW},v1=short,v1=${good}`]) {
      expect({ h, ours: ours(h), sdk: sdkAccepts(h) }).toEqual({ h, ours: { ok: true }, sdk: true });
    }
    const onlyV0 = `t=${NOW},v0=${good}`;
    expect(ours(onlyV0)).toEqual({ ok: false, reason: expect.stringContaining('no v1 signature') });
    expect(sdkAccepts(onlyV0)).toBe(false);
  });

  it('refuses a missing or malformed header with the reason, as the SDK refuses it', () => {
    const good = v1Of(header());
    const cases: [string | undefined, string][] = [
      [undefined, 'missing Stripe-Signature header'],
      ['', 'missing Stripe-Signature header'],
      ['garbage', 'malformed Stripe-Signature header'],
      [`v1=${good}`, 'malformed Stripe-Signature header'],
      [`t=,v1=${good}`, 'malformed Stripe-Signature header'],
      [`t=yesterday,v1=${good}`, 'malformed Stripe-Signature header'],
      [`t=${NOW}`, 'no v1 signature'],
      [`t=${NOW},v1=`, 'no signature matches'],
    ];
    for (const [value, reason] of cases) {
      expect({ value, ours: ours(value) }).toEqual({ value, ours: { ok: false, reason: expect.stringContaining(reason) } });
      if (value !== undefined) expect({ value, sdk: sdkAccepts(value) }).toEqual({ value, sdk: false });
    }
  });
});
