import { defineCapability } from '../../platform/capability';
import { STRIPE_JOB_HANDLERS } from './jobs';
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
    jobs: './jobs#STRIPE_JOB_HANDLERS',
    ports: './ports#ports',
    uses: { api: ['processor', 'subscriptionSaveOffers'], jobs: [], ports: ['processorStripe'] },
    jobNeeds: ['table', 'scheduler', 'encryption'],
  },
  apiFunction: 'processor',
  operations: stripeOperations,
  needs: ['table', 'encryption', 'scheduler'],
  jobs: STRIPE_JOB_HANDLERS,
  ports,
});
