import type * as z from './zod';
import type { OperationContext, PublicContext } from './context';
import type { OperationAccess } from './permissions';
import type { Plan } from './plans';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type AuthKind = 'key' | 'public' | 'processor' | 'portal';

/** Cross-origin access of a public route (cors.ts: `ANY_ORIGIN`, the answers and the preflight). */
export interface CorsPolicy {
  /** Request headers a page may send (the preflight's `Access-Control-Allow-Headers`). */
  allowHeaders: string[];
  /** Answer headers a page may read beyond the safe-listed ones (Retry-After of a 429). */
  exposeHeaders: string[];
  /** How long a browser may keep the preflight's answer. */
  maxAgeSeconds: number;
}

/** A handler's answer when it must choose the status, headers or a non-JSON body itself. */
export interface Reply {
  kind: 'reply';
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Send `body` as is (a string or bytes) instead of JSON. */
  raw?: boolean;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ kind: 'reply', status, body, headers });
export const rawReply = (status: number, body: string | Uint8Array, contentType: string, headers: Record<string, string> = {}): Reply => ({
  kind: 'reply',
  status,
  body,
  raw: true,
  headers: { 'content-type': contentType, ...headers },
});
export const isReply = (value: unknown): value is Reply => typeof value === 'object' && value !== null && (value as Reply).kind === 'reply';

export interface UploadedFile {
  filename: string;
  mimetype: string;
  content: Buffer;
}

type Ctx<A extends AuthKind> = A extends 'key' ? OperationContext : PublicContext;
type Infer<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

export interface OperationInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** multipart/form-data files by field name (operations with bodyType 'multipart'). */
  files: Record<string, UploadedFile[]>;
}

/**
 * One API operation, declared once. Routes (Lambda and local), API Gateway, OpenAPI and MCP
 * tools are all derived from these declarations.
 */
export interface Operation<
  A extends AuthKind = AuthKind,
  PS extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  QS extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  BS extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  OS extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
> {
  operationId: string;
  /**
   * MCP tool name. Every key-authenticated operation is a tool (test/unit/mcp-coverage.test.ts),
   * unless `noTool` says why an agent has no use for it.
   */
  tool?: string;
  /** Why a key-authenticated operation is not an MCP tool (the MCP endpoint itself, the dashboard's own sign-in). */
  noTool?: string;
  summary: string;
  description?: string;
  tags?: string[];
  /**
   * What a team member needs to run it (permissions.ts): an area, `admin` (owners and admins
   * only) or `any`. Defaults to the area of its first tag (AREA_BY_TAG).
   */
  area?: OperationAccess;
  method: HttpMethod;
  /** API Gateway style path: `/products/{id}`; a greedy `{name+}` may end it. */
  path: string;
  auth: A;
  /** Minimum plan for this write; FEATURE_LOCKED below it. */
  plan?: Plan;
  /** A plan gate that depends on the input (enabling a feature, for example). */
  planFor?: (input: OperationInput<Infer<PS>, Infer<QS>, Infer<BS>>) => Plan | undefined;
  params?: PS;
  query?: QS;
  body?: BS;
  /**
   * json (default), multipart (files plus fields, validated by `body`), json-or-multipart, or
   * json-or-form (an HTML form post, application/x-www-form-urlencoded, or JSON).
   */
  bodyType?: 'json' | 'multipart' | 'json-or-multipart' | 'json-or-form';
  /**
   * The multipart parser (shared/platform/http/multipart.ts `parseMultipart`), required with
   * bodyType multipart or json-or-multipart: named by the operation so that busboy is bundled only
   * in functions serving one.
   */
  multipart?: MultipartParser;
  output?: OS;
  /** Success status; 200 unless stated. */
  status?: number;
  /**
   * Browsers on other sites may call it (cors.ts, usually `ANY_ORIGIN`): the preflight is answered
   * and every answer, errors included, carries `Access-Control-Allow-Origin`. Public routes only;
   * the API Gateway routes and the local runtime both follow this declaration.
   */
  cors?: CorsPolicy;
  /** Leave out of the request-rate count (docs, health). */
  unmetered?: boolean;
  /**
   * The operation reads `Idempotency-Key` itself (usage reports: replays answer 200 with
   * `replayed: true` and count once even under racing retries); the generic layer leaves it alone.
   */
  ownIdempotency?: boolean;
  handler: (ctx: Ctx<A>, input: OperationInput<Infer<PS>, Infer<QS>, Infer<BS>>) => Promise<(OS extends z.ZodMiniType ? z.input<OS> : unknown) | Reply>;
}

export type MultipartParser = (body: Buffer, contentType: string) => Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile[]> }>;

// The registry holds operations of every shape; handlers are typed where they are declared.
// biome-ignore lint/suspicious/noExplicitAny: input, output and handler types vary per operation; each is checked where it is declared
export type AnyOperation = Operation<AuthKind, any, any, any, any>;

/** Declares an operation with full inference of its input and output types. */
export function defineOperation<
  A extends AuthKind,
  PS extends z.ZodMiniType | undefined = undefined,
  QS extends z.ZodMiniType | undefined = undefined,
  BS extends z.ZodMiniType | undefined = undefined,
  OS extends z.ZodMiniType | undefined = undefined,
>(operation: Operation<A, PS, QS, BS, OS>): AnyOperation {
  if ((operation.bodyType === 'multipart' || operation.bodyType === 'json-or-multipart') && !operation.multipart) {
    throw new Error(`${operation.operationId}: bodyType ${operation.bodyType} needs its multipart parser (multipart: parseMultipart)`);
  }
  if (operation.cors && operation.auth !== 'public') {
    throw new Error(`${operation.operationId}: cors is for public routes only; key-authenticated routes stay closed to other origins`);
  }
  return operation as AnyOperation;
}

/** `GET /products/{id}`: the route key API Gateway puts on every event. */
export const routeKey = (operation: Pick<AnyOperation, 'method' | 'path'>) => `${operation.method} ${operation.path}`;
