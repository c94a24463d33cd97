import { createHmac } from 'node:crypto';

/** Header names of a delivery (the brand part of the names is the neutral word `Service`). */
export const HEADER = {
  signatureV2: 'X-Service-Signature-V2',
  signatureV1: 'X-Service-Signature',
  event: 'X-Service-Event',
  eventId: 'X-Service-Event-Id',
  timestamp: 'X-Service-Timestamp',
} as const;

/**
 * The key is the 48-character hex secret as text (its UTF-8 bytes), which is what a receiver
 * copies from the creation answer and hands to its own HMAC library.
 */
export const signV2 = (secret: string, timestampSeconds: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex');

export const signV1 = (secret: string, body: string): string => createHmac('sha256', secret).update(body, 'utf8').digest('hex');

/** The signed headers of one attempt; `body` is the exact text that is sent. */
export function deliveryHeaders(input: { secret: string; body: string; eventType: string; eventId: string; nowMs: number }): Record<string, string> {
  const t = Math.floor(input.nowMs / 1000);
  return {
    'Content-Type': 'application/json',
    [HEADER.signatureV2]: `t=${t},v1=${signV2(input.secret, t, input.body)}`,
    [HEADER.signatureV1]: signV1(input.secret, input.body),
    [HEADER.event]: input.eventType,
    [HEADER.eventId]: input.eventId,
    [HEADER.timestamp]: String(input.nowMs),
  };
}
