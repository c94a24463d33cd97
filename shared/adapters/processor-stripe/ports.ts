import type { Capability } from '../../platform/capability';
import type { Deps } from '../../platform/context';
import type { ScopedProcessorProvider } from '../../processor/port';
import type { Scope } from '../../store/keys';
import { StripeProcessor } from './stripe';

/** Builds the port on one seller's Stripe account from the secrets the router decrypted. */
const provider = (deps: Deps): ScopedProcessorProvider => ({
  forScope: (scope: Scope, secrets: Record<string, string>) => {
    if (!secrets.secretKey) throw new Error('The Stripe settings of this account hold no secret key');
    return new StripeProcessor(deps, scope, secrets.secretKey);
  },
});

/**
 * The provider factory the processor's router uses (`ports.processorStripe`), apart from the
 * manifest so that a function which only calls the processor bundles no Stripe webhook route.
 */
export const ports: NonNullable<Capability['ports']> = { processorStripe: { aws: provider, local: provider } };
