import { recordActivity } from '../activity';
import type { OperationContext, PublicContext } from '../context';
import { ApiError, featureLocked } from '../errors';
import { isReply, type AnyOperation, type OperationInput, type Reply, type UploadedFile } from '../operation';
import { authorize, OWNER_KEY } from '../permissions';
import { planAtLeast } from '../plans';
import { parseOrThrow } from './validation';

export interface RawInput {
  params: Record<string, string | undefined>;
  query: Record<string, string | undefined>;
  body: unknown;
  files?: Record<string, UploadedFile[]>;
}

/**
 * Runs one operation after authentication: validate, gate on plan, call the handler, shape the
 * answer. HTTP (Lambda and local) and MCP tool calls all come through here.
 */
export async function executeOperation(operation: AnyOperation, ctx: OperationContext | PublicContext, raw: RawInput): Promise<Reply> {
  // Roles before anything else: a member learns nothing about an operation they may not run.
  if (ctx.account && ctx.actor) authorize(ctx.actor, operation);
  const input: OperationInput<unknown, unknown, unknown> = {
    params: parseOrThrow(operation.params, raw.params, 'params') ?? {},
    query: parseOrThrow(operation.query, raw.query, 'query') ?? {},
    body: parseOrThrow(operation.body, raw.body ?? {}, 'body'),
    files: raw.files ?? {},
  };
  if (ctx.account) {
    const required = operation.plan ?? operation.planFor?.(input as never);
    if (required && !planAtLeast(ctx.account.plan, required)) throw featureLocked(required);
  }
  // Every write through the API lands in the activity log with who made it (activity.ts).
  const run = (context: OperationContext | PublicContext) => operation.handler(context as never, input as never);
  const result =
    ctx.account && operation.method !== 'GET'
      ? await recordActivity(
          ctx,
          ctx.scope,
          ctx.actor ?? OWNER_KEY,
          { ...activityOf(operation, input.params), ...(ctx.request?.sourceIp ? { ip: ctx.request.sourceIp } : {}) },
          run,
        )
      : await run(ctx);
  if (isReply(result)) return result;
  if (operation.output && ctx.config.VALIDATE_OUTPUT === '1') {
    const checked = operation.output.safeParse(result);
    if (!checked.success) {
      throw new ApiError(
        500,
        `Answer of ${operation.operationId} does not match its schema: ${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message}`,
      );
    }
  }
  return { kind: 'reply', status: operation.status ?? 200, body: result };
}

/** The generic activity entry of an API write: the operation and the record its path names. */
function activityOf(operation: AnyOperation, params: unknown) {
  const id = (params as Record<string, unknown>).id;
  return {
    action: operation.operationId,
    target: { type: operation.tags?.[0] ?? 'API', ...(typeof id === 'string' ? { id } : {}) },
    details: { method: operation.method, path: operation.path },
  };
}
