import { HEADER } from './signing';
import type { WebhookAttempt } from './records';

/**
 * The stored form of a log entry, kept under 1 KiB for a usual body so that it costs one write
 * unit: the signed headers are kept as their values only (names and the content type are fixed,
 * event type and id are fields already) and `finalUrl` only when a redirect changed it.
 */
export interface StoredAttempt extends Omit<WebhookAttempt, 'requestHeaders' | 'finalUrl'> {
  finalUrl?: string;
  requestHeaders?: Record<string, string>;
  sig?: { v2: string; v1: string; ts: string };
}

export function toStoredAttempt(attempt: WebhookAttempt): StoredAttempt {
  const { requestHeaders, finalUrl, ...rest } = attempt;
  const compact =
    Object.keys(requestHeaders).length === 6 &&
    requestHeaders['Content-Type'] === 'application/json' &&
    requestHeaders[HEADER.event] === attempt.eventType &&
    requestHeaders[HEADER.eventId] === attempt.eventId;
  return {
    ...rest,
    ...(finalUrl !== attempt.url ? { finalUrl } : {}),
    ...(compact
      ? { sig: { v2: requestHeaders[HEADER.signatureV2]!, v1: requestHeaders[HEADER.signatureV1]!, ts: requestHeaders[HEADER.timestamp]! } }
      : { requestHeaders }),
  };
}

export function fromStoredAttempt(stored: StoredAttempt): WebhookAttempt {
  const { sig, finalUrl, requestHeaders, ...rest } = stored;
  return {
    ...rest,
    finalUrl: finalUrl ?? stored.url,
    requestHeaders: sig
      ? {
          'Content-Type': 'application/json',
          [HEADER.signatureV2]: sig.v2,
          [HEADER.signatureV1]: sig.v1,
          [HEADER.event]: stored.eventType,
          [HEADER.eventId]: stored.eventId,
          [HEADER.timestamp]: sig.ts,
        }
      : (requestHeaders ?? {}),
  };
}
