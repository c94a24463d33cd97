import { defineCapability } from '../platform/capability';
import { checkoutOperations } from './operations';
import { CHECKOUT_CONSENT_EVENT } from './records';

/** Checkout sessions; fulfilment composes the money path's records into one transaction. */
export const checkout = defineCapability({
  name: 'checkout',
  build: {
    manifest: { url: import.meta.url, export: 'checkout' },
    operations: './operations#checkoutOperations',
    uses: { api: ['processor'] },
  },
  operations: checkoutOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  eventTypes: [CHECKOUT_CONSENT_EVENT],
});
