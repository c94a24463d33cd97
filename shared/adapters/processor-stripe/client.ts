import Stripe from 'stripe';
import type { Config } from '../../platform/config';

/**
 * A Stripe client for one secret key. `STRIPE_API_URL` points it elsewhere (tests: a fake Stripe
 * API on 127.0.0.1). Retries reuse each POST's Idempotency-Key, which the adapter always sets.
 */
export function stripeClient(secretKey: string, config: Pick<Config, 'STRIPE_API_URL'>): Stripe {
  const target = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined;
  return new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
    appInfo: { name: 'creator-commerce' },
    ...(target ? { host: target.hostname, port: target.port || (target.protocol === 'https:' ? 443 : 80), protocol: target.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
}
