import { defineCapability } from '../platform/capability';
import { checkoutOperations } from './operations';
import { checkoutJobs } from './recovery-job';
import { CHECKOUT_CONSENT_EVENT } from './records';

/** Checkout sessions and abandoned-checkout recovery; fulfilment composes the money path's records into one transaction. */
export const checkout = defineCapability({
  name: 'checkout',
  build: {
    manifest: { url: import.meta.url, export: 'checkout' },
    operations: './operations#checkoutOperations',
    jobs: './recovery-job#checkoutJobs',
    uses: { api: ['processor'] },
    jobNeeds: ['table', 'queue', 'scheduler'],
  },
  operations: checkoutOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  jobs: checkoutJobs,
  eventTypes: ['checkout.abandoned', CHECKOUT_CONSENT_EVENT],
});
