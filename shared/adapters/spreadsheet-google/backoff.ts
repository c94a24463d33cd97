/**
 * Retries a provider call on 429 and 5xx with exponential back-off and jitter, honouring
 * Retry-After. `safeToRepeat` false (an append) retries only 429, which the provider answers
 * before doing anything; a 5xx after an append may have written, so the batch decides instead.
 */
export interface BackoffOptions {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

export const statusOf = (error: unknown): number | undefined => {
  const e = error as { status?: unknown; response?: { status?: unknown }; code?: unknown };
  const status = e?.response?.status ?? e?.status ?? (typeof e?.code === 'number' ? e.code : undefined);
  return typeof status === 'number' ? status : undefined;
};

const retryAfterMs = (error: unknown): number | undefined => {
  const headers = (error as { response?: { headers?: unknown } })?.response?.headers as
    | { get?: (name: string) => string | null }
    | Record<string, string>
    | undefined;
  const value = typeof headers?.get === 'function' ? headers.get('retry-after') : (headers as Record<string, string> | undefined)?.['retry-after'];
  const seconds = value ? Number(value) : NaN;
  return Number.isFinite(seconds) ? seconds * 1000 : undefined;
};

export async function withBackoff<T>(call: () => Promise<T>, options: BackoffOptions, safeToRepeat: boolean): Promise<T> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const status = statusOf(error);
      const retryable = status === 429 || (safeToRepeat && status !== undefined && status >= 500);
      if (!retryable || attempt >= options.retries) throw error;
      const exponential = options.baseDelayMs * 2 ** attempt;
      const delay = Math.min(options.maxDelayMs, Math.max(retryAfterMs(error) ?? 0, exponential + Math.floor(Math.random() * options.baseDelayMs)));
      await sleep(delay);
    }
  }
}
