import { defineCapability } from '../../platform/capability';
import { stripeOperations } from './operations';
import { ports } from './ports';

/**
 * The Stripe payment processor, a provider of the processor capability's port for the scopes whose
 * settings name it: the provider factory (`ports.processorStripe`, which the processor's router
 * uses) and the Stripe webhook route, served by the processor's API function.
 */
export const processorStripe = defineCapability({
  name: 'processor-stripe',
  build: {
    manifest: { url: import.meta.url, export: 'processorStripe' },
    operations: './operations#stripeOperations',
    ports: './ports#ports',
    uses: { api: ['processor', 'subscriptionSaveOffers'], ports: ['processorStripe'] },
  },
  apiFunction: 'processor',
  operations: stripeOperations,
  needs: ['table', 'encryption'],
  ports,
});
