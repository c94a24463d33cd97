import type { Config } from '../../platform/config';
import { StripeApi } from './api';
import { StripeHttp, type StripeHttpOptions } from './http';

/**
 * A Stripe client for one secret key: our own transport (http.ts) behind the SDK-shaped resources
 * (api.ts). `STRIPE_API_URL` points it elsewhere (tests: a fake Stripe API on 127.0.0.1). Up to
 * 2 retries, 10 s per attempt; retries reuse each POST's Idempotency-Key, which the adapter always
 * sets.
 */
export function stripeClient(
  secretKey: string,
  config: Pick<Config, 'STRIPE_API_URL'>,
  tuning: Omit<StripeHttpOptions, 'secretKey' | 'apiUrl'> = {},
): StripeApi {
  return new StripeApi(new StripeHttp({ secretKey, apiUrl: config.STRIPE_API_URL, timeoutMs: 10_000, maxRetries: 2, ...tuning }));
}
