import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { isApiError } from '../errors';
import type { Reply } from '../operation';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function renderReply(reply: Reply, requestId: string): APIGatewayProxyStructuredResultV2 {
  const headers = { 'x-request-id': requestId, ...(reply.raw ? {} : JSON_HEADERS), ...(reply.headers ?? {}) };
  if (reply.status === 204 || reply.body === undefined) return { statusCode: reply.status, headers, body: '' };
  if (reply.raw) {
    if (typeof reply.body === 'string') return { statusCode: reply.status, headers, body: reply.body };
    return { statusCode: reply.status, headers, body: Buffer.from(reply.body as Uint8Array).toString('base64'), isBase64Encoded: true };
  }
  return { statusCode: reply.status, headers, body: JSON.stringify(reply.body) };
}

/**
 * The one place errors become answers. An ApiError shows its message, code, field and details;
 * anything else is a 500 that shows nothing of the internals, only the request id to quote.
 */
export function renderError(error: unknown, requestId: string): APIGatewayProxyStructuredResultV2 {
  if (isApiError(error) && error.status < 500) {
    const body: Record<string, unknown> = { error: error.message, message: error.message };
    if (error.code) body.code = error.code;
    if (error.field) body.field = error.field;
    if (error.details) body.details = error.details;
    return { statusCode: error.status, headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...(error.headers ?? {}) }, body: JSON.stringify(body) };
  }
  if (isApiError(error) && error.status !== 500) {
    // 501, 502, 503: deliberate answers about a dependency, safe to show.
    const body: Record<string, unknown> = { error: error.message, message: error.message, requestId };
    if (error.code) body.code = error.code;
    return { statusCode: error.status, headers: { ...JSON_HEADERS, 'x-request-id': requestId }, body: JSON.stringify(body) };
  }
  return {
    statusCode: 500,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId },
    body: JSON.stringify({ error: 'Internal error', message: 'Internal error', requestId }),
  };
}
