import createClient from 'openapi-fetch';
import type { operations, paths } from './schema';

/** The typed API client: every call of the dashboard goes through one of these. */
export type Api = ReturnType<typeof createClient<paths>>;
export type { paths };

/**
 * A client acting with one session token (one store, one mode). A 401 means the session ended
 * (expired or signed out elsewhere): `onUnauthorized` sends the person back to sign-in.
 */
export function createApiClient(baseUrl: string, token: string | undefined, onUnauthorized: () => void = () => {}): Api {
  const client = createClient<paths>({ baseUrl });
  client.use({
    onRequest({ request }) {
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
    onResponse({ response }) {
      if (response.status === 401 && token) onUnauthorized();
      return response;
    },
  });
  return client;
}

/** The API's error body (components.schemas.Error). */
export interface ApiErrorBody {
  error?: string;
  message?: string;
  code?: string;
  field?: string;
  details?: unknown;
}

/** A failed call, carrying the API's own reason so that pages can show it as is. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(apiMessage(status, body));
  }
  get code() {
    return this.body?.code;
  }
}

export function apiMessage(status: number, body: ApiErrorBody | string | undefined): string {
  if (body && typeof body === 'object') {
    const text = body.message ?? body.error;
    if (text) return body.field && !text.includes(body.field) ? `${text} (${body.field})` : text;
  }
  if (typeof body === 'string' && body) return body;
  if (status === 0) return 'The API could not be reached';
  return `The API answered ${status}`;
}

/**
 * Unwraps an openapi-fetch result: the data, or an ApiFailure with the API's message.
 * `await unwrap(api.GET('/products'))`.
 */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  return (await settle(call)).data as T;
}

/**
 * Unwraps one page of a list the API answers as a bare array (orders, payments, customers): the
 * rows, and the next page's cursor from the `X-Next-Cursor` header (null on the last page).
 */
export async function unwrapPage<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{ rows: T; nextCursor: string | null }> {
  const result = await settle(call);
  return { rows: result.data as T, nextCursor: result.response.headers.get('x-next-cursor') };
}

async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>) {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new ApiFailure(0, { message: error instanceof Error ? `The API could not be reached: ${error.message}` : 'The API could not be reached' });
  }
  if (!result.response.ok) throw new ApiFailure(result.response.status, result.error as ApiErrorBody | undefined);
  return result;
}

/** The JSON body an operation takes, by operationId: `JsonBody<'createProduct'>`. */
export type JsonBody<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
/** The JSON answer of an operation's success status, by operationId: `JsonAnswer<'listProducts'>`. */
export type JsonAnswer<Op extends keyof operations> = operations[Op]['responses'] extends infer R
  ? { [S in keyof R]: S extends 200 | 201 ? (R[S] extends { content: { 'application/json': infer A } } ? A : never) : never }[keyof R]
  : never;
