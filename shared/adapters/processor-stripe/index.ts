import { defineCapability, type PortFactory } from '../../platform/capability';
import type { Deps } from '../../platform/context';
import type { ScopedProcessorProvider } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { stripeOperations } from './operations';
import { StripeProcessor } from './stripe';

/** Builds the port on one seller's Stripe account from the secrets the router decrypted. */
const provider = (deps: Deps): ScopedProcessorProvider => ({
  forScope: (scope: Scope, secrets: Record<string, string>) => {
    if (!secrets.secretKey) throw new Error('The Stripe settings of this account hold no secret key');
    return new StripeProcessor(deps, scope, secrets.secretKey);
  },
});

export const stripeProcessorPort: PortFactory = { aws: provider, local: provider };

/**
 * The Stripe payment processor, a provider of the processor capability's port for the scopes whose
 * settings name it: the provider factory (`ports.processorStripe`, which the processor's router
 * uses) and the Stripe webhook route, served by the processor's API function.
 */
export const processorStripe = defineCapability({
  name: 'processor-stripe',
  apiFunction: 'processor',
  operations: stripeOperations,
  needs: ['table', 'encryption'],
  ports: { processorStripe: stripeProcessorPort },
});
