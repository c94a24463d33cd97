import Stripe from 'stripe';
import type { Deps } from '../../platform/context';
import { badRequest } from '../../platform/errors';
import { logger } from '../../platform/logger';
import { applyNotification } from '../../processor/ingress';
import { alreadyProcessed } from '../../processor/marker';
import { decryptProcessorSecrets, getProcessorSettings } from '../../processor/settings';
import type { Scope } from '../../store/keys';
import { stripeClient } from './client';
import { translateEvent } from './translate';

export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
/** Stripe's own default tolerance for the signature's age. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
const invalid = (reason: string) => badRequest(`Invalid signature: ${reason}`, { code: 'INVALID_SIGNATURE' });

/**
 * `POST /processor/stripe/webhooks/{accountId}/{mode}`: verifies `Stripe-Signature` with the
 * scope's signing secret (the SDK's `webhooks.constructEvent`), translates the event and
 * applies it through the processor ingress, which records the Stripe event id as the processed marker in the
 * same transaction as the change: a replay answers `duplicate`, and a forged or stale signature
 * 400 before anything is read or written.
 */
export async function receiveStripeEvent(deps: Deps, scope: Scope, request: { rawBody: string; headers: Record<string, string>; baseUrl: string }) {
  const settings = await getProcessorSettings(deps.store, scope);
  if (settings?.provider !== 'stripe') throw invalid('Stripe is not configured for this account and mode');
  const secrets = await decryptProcessorSecrets(deps.ports.encryption, scope, settings);
  if (!secrets.webhookSecret) throw invalid('no Stripe signing secret is configured for this account and mode');
  const header = request.headers[STRIPE_SIGNATURE_HEADER];
  if (!header) throw invalid('missing Stripe-Signature header');
  let event: Stripe.Event;
  try {
    // The SDK's check (HMAC-SHA256 of "t.body", every v1 compared in constant time), its age
    // measured on the service clock so that the local runtime's advanced clock agrees with it.
    event = Stripe.webhooks.constructEvent(request.rawBody, header, secrets.webhookSecret, STRIPE_SIGNATURE_TOLERANCE_SECONDS, undefined, deps.clock.nowMs());
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw invalid(error.message.split('\n')[0]!.trim());
    throw invalid('the signed payload is not JSON');
  }
  if (!event || typeof event !== 'object' || typeof event.id !== 'string' || typeof event.type !== 'string')
    throw invalid('the signed payload is not a Stripe event');
  if (event.livemode !== (scope.mode === 'live'))
    throw badRequest(`A ${event.livemode ? 'live' : 'test'}-mode Stripe event cannot be applied to ${scope.mode} mode`, { code: 'MODE_MISMATCH' });
  // De-duplicated on the Stripe event id first: a replay answers as one, whatever came since.
  if (await alreadyProcessed(deps.store, event.id)) return { received: true as const, duplicate: true };
  const notification = await translateEvent({ deps, scope, client: stripeClient(secrets.secretKey!, deps.config), event });
  if (!notification) {
    logger.info('acknowledged Stripe event', { type: event.type, id: event.id });
    return { received: true as const, ignored: true };
  }
  return applyNotification(deps, notification, request.baseUrl);
}
