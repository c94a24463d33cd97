import Stripe from 'stripe';
import type { Config } from '../../platform/config';

/**
 * The Stripe API version every call is made with. The SDK's types are generated for exactly one
 * version (`LatestApiVersion`), so this literal fails to compile when an SDK upgrade moves it:
 * the pin and the types move together, never silently.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

export interface StripeTuning {
  /** Per attempt; default 10 s (the SDK's own default is 80 s, longer than an API request may wait). */
  timeoutMs?: number;
  /** The SDK's network retries after the first attempt (no answer, 409, 5xx, Stripe-Should-Retry); default 2. */
  maxNetworkRetries?: number;
}

const clients = new Map<string, Stripe>();

/**
 * The official SDK on one secret key, kept per key and origin for the container's life (its
 * keep-alive agent is reused). `STRIPE_API_URL` points it elsewhere (tests: the fake Stripe on
 * 127.0.0.1), through the SDK's own host, port and protocol options; only the origin is used.
 * Every mutating call of the adapter passes its own idempotency key, which the SDK's retries and
 * the adapter's rate-limit retries (stripe.ts `stripeCall`) both reuse.
 */
export function stripeClient(secretKey: string, config: Pick<Config, 'STRIPE_API_URL'>, tuning: StripeTuning = {}): Stripe {
  const cacheKey = `${secretKey}\n${config.STRIPE_API_URL ?? ''}\n${tuning.timeoutMs ?? ''}\n${tuning.maxNetworkRetries ?? ''}`;
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const url = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined;
  const client = new Stripe(secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: tuning.maxNetworkRetries ?? 2,
    timeout: tuning.timeoutMs ?? 10_000,
    telemetry: false,
    appInfo: { name: 'creator-commerce' },
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }
      : {}),
  });
  if (clients.size > 100) clients.clear();
  clients.set(cacheKey, client);
  return client;
}
