import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { badRequest } from '../errors';
import type { AnyOperation, UploadedFile } from '../operation';
import type { RequestInfo } from '../context';
import type { RawInput } from './execute';
import { decodeFormFields } from './form-fields';

export function lowerCaseHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) out[name.toLowerCase()] = value;
  return out;
}

export function requestInfo(event: APIGatewayProxyEventV2, baseUrlOverride?: string): RequestInfo {
  const headers = lowerCaseHeaders(event.headers);
  const rawBody = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  const host = headers['x-forwarded-host'] ?? headers.host ?? event.requestContext.domainName;
  const proto = headers['x-forwarded-proto'] ?? 'https';
  return {
    requestId: event.requestContext.requestId,
    method: event.requestContext.http.method,
    path: event.rawPath,
    headers,
    rawBody,
    sourceIp: event.requestContext.http.sourceIp,
    baseUrl: (baseUrlOverride ?? `${proto}://${host}`).replace(/\/$/, ''),
  };
}

/** Decodes the body as the operation declares it: JSON, multipart form data, or either. */
export async function readInput(operation: AnyOperation, event: APIGatewayProxyEventV2, info: RequestInfo): Promise<RawInput> {
  const raw: RawInput = { params: event.pathParameters ?? {}, query: event.queryStringParameters ?? {}, body: undefined };
  if (!event.body) return raw;
  const contentType = info.headers['content-type'] ?? '';
  const isMultipart = contentType.toLowerCase().startsWith('multipart/form-data');
  const accepts = operation.bodyType ?? 'json';
  if (isMultipart) {
    if (!operation.multipart)
      throw badRequest(
        `This endpoint takes ${accepts === 'json-or-form' ? 'application/json or application/x-www-form-urlencoded' : 'application/json'}, not multipart/form-data`,
      );
    const bytes = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'binary');
    const parsed = await operation.multipart(bytes, contentType);
    raw.body = decodeFormFields(parsed.fields);
    raw.files = parsed.files as Record<string, UploadedFile[]>;
    return raw;
  }
  if (accepts === 'multipart') throw badRequest('This endpoint takes multipart/form-data');
  if (info.rawBody.trim() === '') return raw;
  if (accepts === 'json-or-form' && contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    raw.body = Object.fromEntries(new URLSearchParams(info.rawBody));
    return raw;
  }
  try {
    raw.body = JSON.parse(info.rawBody);
  } catch {
    throw badRequest('Body is not valid JSON');
  }
  return raw;
}
