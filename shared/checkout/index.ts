import { defineCapability } from '../platform/capability';
import { checkoutOperations } from './operations';
import { checkoutRecoveryJob } from './recovery';
import { JOB_CHECKOUT_RECOVERY } from './recovery-timer';

/** Checkout sessions and abandoned-checkout recovery; fulfilment composes the money path's records into one transaction. */
export const checkout = defineCapability({
  name: 'checkout',
  operations: checkoutOperations,
  needs: ['table', 'queue', 'scheduler', 'encryption'],
  jobs: { [JOB_CHECKOUT_RECOVERY]: checkoutRecoveryJob },
  eventTypes: ['checkout.abandoned'],
});
