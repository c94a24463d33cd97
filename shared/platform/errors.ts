/**
 * The one error type of the service. Everything a handler or service throws on purpose is an
 * ApiError; anything else is an internal fault and is rendered as a bare 500 (see http/render.ts).
 */
export interface ApiErrorOptions {
  code?: string;
  details?: Record<string, unknown>;
  /** The input field at fault, for validation errors (for example `intro.price`). */
  field?: string;
  headers?: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly details?: Record<string, unknown>;
  readonly field?: string;
  readonly headers?: Record<string, string>;

  constructor(status: number, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = options.code;
    this.details = options.details;
    this.field = options.field;
    this.headers = options.headers;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

export const badRequest = (message: string, options?: ApiErrorOptions) => new ApiError(400, message, options);
export const unauthorized = (message = 'Missing or invalid API key') => new ApiError(401, message);
export const forbidden = (message: string, options?: ApiErrorOptions) => new ApiError(403, message, options);
export const notFound = (what = 'Record') => new ApiError(404, `${what} not found`);
export const conflict = (message: string, code?: string, details?: Record<string, unknown>) => new ApiError(409, message, { code, details });
export const badGateway = (message: string, code?: string) => new ApiError(502, message, { code });
export const notImplemented = (message: string) => new ApiError(501, message);

export const featureLocked = (requiredPlan: string) =>
  new ApiError(403, `This feature needs the ${requiredPlan} plan or higher`, {
    code: 'FEATURE_LOCKED',
    details: { requiredPlan },
  });

export const tooManyRequests = (retryAfterSeconds: number, message = 'Rate limit exceeded', code?: string) =>
  new ApiError(429, message, {
    code,
    details: { retryAfterSeconds },
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
