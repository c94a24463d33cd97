import middy from '@middy/core';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { authenticate } from '../auth';
import type { Deps, OperationContext, PublicContext } from '../context';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { activeTracing, getMetrics, inLambda, recordAnswer } from '../observability';
import { corsHeaders, preflightHeaders, preflightRouteKey, preflightRoutes, type PreflightRoute } from '../cors';
import { reply, routeKey, type AnyOperation } from '../operation';
import { consumeRequest } from '../rate-limit';
import { executeOperation } from './execute';
import { idempotencyKeyOf, withIdempotencyKey } from './idempotency';
import { renderError, renderReply } from './render';
import { readInput, requestInfo } from './request';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResult = APIGatewayProxyStructuredResultV2;

/** What the pipeline needs beyond the event: the dependencies, resolved lazily once. */
export interface HandlerOptions {
  deps: () => Deps | Promise<Deps>;
}

/**
 * The request pipeline of one resource group's function: route by the event's route key,
 * authenticate, count the request, decode and validate, gate on plan, run, render. Lambda and the
 * local runtime call the very same function.
 */
export async function handleApiEvent(operations: Map<string, AnyOperation>, deps: Deps, event: ApiEvent): Promise<ApiResult> {
  if (deps.config.STAGE !== 'local') return runPipeline(operations, deps, event);
  // Locally, every answer says what it cost in DynamoDB capacity units (read by npm run bench).
  const meter = { read: 0, write: 0 };
  const result = await runPipeline(operations, { ...deps, store: deps.store.forRequest({ meter }) }, event);
  result.headers = { ...(result.headers ?? {}), 'x-consumed-capacity': `read=${meter.read};write=${meter.write}` };
  return result;
}

async function runPipeline(operations: Map<string, AnyOperation>, deps: Deps, event: ApiEvent): Promise<ApiResult> {
  const operation = operations.get(event.routeKey);
  const result = await answer(operation, deps, event);
  // A route declared for other origins says so on every answer, errors included (cors.ts).
  if (operation?.cors) result.headers = { ...(result.headers ?? {}), ...corsHeaders(operation.cors) };
  return result;
}

async function answer(operation: AnyOperation | undefined, deps: Deps, event: ApiEvent): Promise<ApiResult> {
  const info = requestInfo(event, deps.config.PUBLIC_BASE_URL);
  try {
    if (!operation) throw new ApiError(404, `No route ${event.routeKey}`);
    let ctx: OperationContext | PublicContext;
    if (operation.auth === 'key') {
      const principal = await authenticate(deps, info.headers.authorization);
      if (!operation.unmetered) await consumeRequest(deps, principal.account.accountId);
      ctx = { ...deps, scope: principal.scope, account: principal.account, actor: principal.actor, request: info };
    } else {
      ctx = { ...deps, request: info };
    }
    const run = async () => {
      try {
        const input = await readInput(operation, event, info);
        return renderReply(await executeOperation(operation, ctx, input), info.requestId);
      } catch (error) {
        return failed(error, event, info.requestId);
      }
    };
    const idempotencyKey = operation.method === 'POST' && ctx.scope && !operation.ownIdempotency ? idempotencyKeyOf(info) : undefined;
    return idempotencyKey ? await withIdempotencyKey(deps, ctx.scope!, idempotencyKey, info, run) : await run();
  } catch (error) {
    return failed(error, event, info.requestId);
  }
}

function failed(error: unknown, event: ApiEvent, requestId: string): ApiResult {
  // A deliberate 5xx (a dependency refused or timed out, answered with its reason) is expected
  // operation and a warning; anything else reaching here is a defect and an error.
  if (!(error instanceof ApiError)) logger.error('request failed', { routeKey: event.routeKey, requestId, error: error as Error });
  else if (error.status >= 500)
    logger.warn('answered a dependency fault', { routeKey: event.routeKey, requestId, status: error.status, code: error.code, reason: error.message });
  return renderError(error, requestId);
}

/** The group's operations by route key, with the preflight route of each path declared for other origins. */
export const indexOperations = (operations: AnyOperation[]) =>
  new Map<string, AnyOperation>([
    ...operations.map((op): [string, AnyOperation] => [routeKey(op), op]),
    ...preflightRoutes(operations).map((route): [string, AnyOperation] => [preflightRouteKey(route.path), preflightOperation(route)]),
  ]);

/** The answer to a browser's preflight: not an API operation (no OpenAPI path, no tool), only a route. */
const preflightOperation = (route: PreflightRoute): AnyOperation => ({
  operationId: `preflight ${route.path}`,
  summary: 'CORS preflight',
  method: 'OPTIONS' as AnyOperation['method'],
  path: route.path,
  auth: 'public',
  unmetered: true,
  cors: route.policy,
  handler: async () => reply(204, undefined, preflightHeaders(route)),
});

/** The Lambda entry of one resource group: the Powertools logger's context, middy for tracing and metrics. */
export function createApiHandler(operations: AnyOperation[], options: HandlerOptions) {
  const index = indexOperations(operations);
  let resolved: Promise<Deps> | undefined;
  // The logger's invocation context is set and its per-request keys reset here, as Powertools'
  // injectLambdaContext middleware does, without its per-request work (sample-rate refresh,
  // environment reads, cleanup bookkeeping): that and middy's chain were ~40 µs of a read's CPU
  // (docs/performance.md, issue 43). Middy stays for what needs it: tracing and metrics.
  const base = async (event: ApiEvent, context: Context): Promise<ApiResult> => {
    logger.addContext(context);
    try {
      resolved ??= Promise.resolve(options.deps());
      const result = await handleApiEvent(index, await resolved, event);
      recordAnswer(result.statusCode ?? 200);
      return result;
    } finally {
      logger.resetKeys();
    }
  };
  const tracing = activeTracing();
  if (!tracing && !inLambda()) return base;
  const handler = middy<ApiEvent, ApiResult>();
  if (tracing) handler.use(tracing.middleware());
  if (inLambda()) handler.use(logMetrics(getMetrics()));
  return handler.handler(base);
}
