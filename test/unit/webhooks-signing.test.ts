import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDeliveryBody } from '../../shared/webhooks/payload';
import { deliveryHeaders, signV1, signV2 } from '../../shared/webhooks/signing';
import { verifyWebhook } from '../../shared/webhooks/receiver';

const secret = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718';
const nowMs = 1_763_700_000_123;

describe('delivery body', () => {
  it('puts id, type, created first, then the event fields in order, then webhookId, and test last', () => {
    const body = buildDeliveryBody({ id: 'e1', type: 'product.created', created: 1700, data: { b: 1, a: { z: 1, y: 2 } } }, 'w1');
    expect(body).toBe('{"id":"e1","type":"product.created","created":1700,"b":1,"a":{"z":1,"y":2},"webhookId":"w1"}');
    const test = buildDeliveryBody({ id: 'e1', type: 'order.completed', created: 1700, data: {} }, 'w1', { test: true });
    expect(test).toBe('{"id":"e1","type":"order.completed","created":1700,"webhookId":"w1","test":true}');
  });

  it('never lets a data field take over an envelope field', () => {
    const body = JSON.parse(buildDeliveryBody({ id: 'e1', type: 't', created: 1, data: { id: 'x', webhookId: 'y', test: true, name: 'n' } }, 'w1'));
    expect(body).toEqual({ id: 'e1', type: 't', created: 1, name: 'n', webhookId: 'w1' });
  });
});

describe('signer', () => {
  const body = '{"id":"e1","type":"order.completed","created":1700,"webhookId":"w1"}';

  it('signs V2 over "<t>.<body>" and V1 over the body, as an independent HMAC computes', () => {
    const t = Math.floor(nowMs / 1000);
    expect(signV2(secret, t, body)).toBe(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
    expect(signV1(secret, body)).toBe(createHmac('sha256', secret).update(body).digest('hex'));
    const headers = deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e1', nowMs });
    expect(headers['X-Service-Signature-V2']).toBe(`t=${t},v1=${signV2(secret, t, body)}`);
    expect(headers['X-Service-Signature']).toBe(signV1(secret, body));
    expect(headers['X-Service-Event']).toBe('order.completed');
    expect(headers['X-Service-Event-Id']).toBe('e1');
    expect(headers['X-Service-Timestamp']).toBe(String(nowMs));
  });

  it('changes with one byte of body, and with the secret', () => {
    expect(signV2(secret, 1, body)).not.toBe(signV2(secret, 1, body.replace('1700', '1701')));
    expect(signV2(secret, 1, body)).not.toBe(signV2(secret.replace('a', 'b'), 1, body));
    expect(signV2(secret, 1, body)).not.toBe(signV2(secret, 2, body));
  });
});

describe('receiver verify', () => {
  const body = '{"id":"e1","type":"order.completed","created":1700,"webhookId":"w1"}';
  const headers = deliveryHeaders({ secret, body, eventType: 'order.completed', eventId: 'e1', nowMs });

  it('accepts a genuine V2 delivery within the tolerance, with any header case', () => {
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyWebhook({ rawBody: body, headers: lower, secret, now: nowMs + 60_000 })).toMatchObject({ ok: true, version: 'v2', eventId: 'e1' });
    expect(verifyWebhook({ rawBody: Buffer.from(body), headers: new Headers(headers), secret, now: nowMs })).toMatchObject({ ok: true });
    expect(verifyWebhook({ rawBody: body, headers, secret: ['old-secret', secret], now: nowMs })).toMatchObject({ ok: true });
  });

  it('rejects a stale or future timestamp, a changed body, re-serialised JSON, a wrong secret', () => {
    expect(verifyWebhook({ rawBody: body, headers, secret, now: nowMs + 301_000 })).toEqual({ ok: false, reason: 'timestamp outside the tolerance' });
    expect(verifyWebhook({ rawBody: body, headers, secret, now: nowMs - 301_000 }).ok).toBe(false);
    expect(verifyWebhook({ rawBody: body, headers, secret, now: nowMs + 100_000, toleranceSeconds: 60 }).ok).toBe(false);
    expect(verifyWebhook({ rawBody: body.replace('1700', '1701'), headers, secret, now: nowMs })).toEqual({ ok: false, reason: 'signature mismatch' });
    expect(verifyWebhook({ rawBody: JSON.stringify(JSON.parse(body), null, 1), headers, secret, now: nowMs }).ok).toBe(false);
    expect(verifyWebhook({ rawBody: body, headers, secret: 'f'.repeat(48), now: nowMs }).ok).toBe(false);
  });

  it('rejects a malformed or missing V2 header, and uses V1 only when allowed and never as a fallback for a bad V2', () => {
    expect(verifyWebhook({ rawBody: body, headers: { ...headers, 'X-Service-Signature-V2': 'v1=abc' }, secret, now: nowMs }).ok).toBe(false);
    expect(
      verifyWebhook({
        rawBody: body,
        headers: { ...headers, 'X-Service-Signature-V2': `t=${Math.floor(nowMs / 1000)},v1=${'0'.repeat(64)}` },
        secret,
        now: nowMs,
        allowLegacy: true,
      }).ok,
    ).toBe(false);
    const v1Only = { ...headers } as Record<string, string>;
    delete v1Only['X-Service-Signature-V2'];
    expect(verifyWebhook({ rawBody: body, headers: v1Only, secret, now: nowMs }).ok).toBe(false);
    expect(verifyWebhook({ rawBody: body, headers: v1Only, secret, now: nowMs, allowLegacy: true })).toMatchObject({ ok: true, version: 'v1' });
    expect(verifyWebhook({ rawBody: body, headers: v1Only, secret, now: nowMs + 600_000, allowLegacy: true }).ok).toBe(false);
    expect(verifyWebhook({ rawBody: body, headers: {}, secret, now: nowMs })).toEqual({ ok: false, reason: 'no signature header' });
  });
});
