import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { requestId } from '../platform/ids';

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|javascript)|text\/)/i;

/** Builds the API Gateway HTTP API (payload 2.0) event that Lambda would receive for a request. */
export function toApiGatewayEvent(
  request: IncomingMessage,
  body: Buffer,
  route: { routeKey: string; params: Record<string, string> },
  url: URL,
  /** The runtime's clock, which `clock/advance` may have moved ahead of the wall. */
  nowMs: number,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType) || contentType === '';
  const now = new Date(nowMs);
  return {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: headers.cookie ? headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(route.params).length ? route.params : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? url.host,
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: requestId(),
      routeKey: route.routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
}
