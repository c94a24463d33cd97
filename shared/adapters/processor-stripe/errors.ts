import Stripe from 'stripe';
import { logger } from '../../platform/logger';
import { ProcessorError } from '../../processor/port';

/**
 * Stripe's errors (the SDK's typed classes) as the port's: callers degrade on ProcessorError (spec:
 * 502/409 answers). Anything that is not a Stripe error (ours) is rethrown as it is.
 * - `StripeCardError` (402): `declined`, with Stripe's decline code as the reason;
 * - `StripeInvalidRequestError` (400/404): `not_found` for `resource_missing`, else `invalid`;
 * - rate limits, idempotency conflicts, authentication, permission, Stripe's own errors and no
 *   answer (`StripeConnectionError`, timeouts included): `refused`.
 */
export function processorErrorOf(error: unknown): never {
  if (!(error instanceof Stripe.errors.StripeError)) throw error;
  logger.warn('Stripe refused a call', { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId });
  if (error instanceof Stripe.errors.StripeCardError) throw new ProcessorError(error.message, 'declined', error.decline_code ?? error.code);
  if (error instanceof Stripe.errors.StripeInvalidRequestError && !rateLimited(error)) {
    throw new ProcessorError(error.message, error.code === 'resource_missing' ? 'not_found' : 'invalid');
  }
  throw new ProcessorError(error.message, 'refused');
}

/** Stripe says "too many requests" (429, or a 400 `rate_limit` on some endpoints). */
const rateLimited = (error: InstanceType<typeof Stripe.errors.StripeError>) =>
  error instanceof Stripe.errors.StripeRateLimitError || error.statusCode === 429 || error.code === 'rate_limit' || error.code === 'lock_timeout';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Backoff between the adapter's own attempts after a rate limit: 0.5 s, 1 s, 2 s, jittered to [½, 1]. */
export const rateLimitDelayMs = (retry: number, random = Math.random) => Math.max(500, 500 * 2 ** retry * 0.5 * (1 + random()));

/**
 * One Stripe call, its errors mapped. The SDK retries no answer, timeouts, 409 and 5xx itself; a
 * 429 it retries only when Stripe says so, so the adapter backs off and tries a rate-limited call
 * again (at most 2 more times), as Stripe's rate-limit guide asks. `run` must carry the same
 * idempotency key on every attempt (compute it before the call): Stripe then replays an attempt
 * it already did rather than repeating it, so nothing is charged twice.
 */
export async function stripeCall<T>(run: () => Promise<T>, options: { rateLimitRetries?: number; delayMs?: (retry: number) => number } = {}): Promise<T> {
  const retries = options.rateLimitRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt < retries && error instanceof Stripe.errors.StripeError && rateLimited(error)) {
        await sleep((options.delayMs ?? rateLimitDelayMs)(attempt));
        continue;
      }
      return processorErrorOf(error);
    }
  }
}
