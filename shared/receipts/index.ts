import { defineCapability } from '../platform/capability';
import { failedPaymentConsumer, receiptConsumer } from './consumers';

/**
 * The mails a buyer gets after a charge (receipt, failed payment with the card-update request),
 * queued from committed sale and subscription events for the email capability's worker
 * (shared/email/outbox.ts), once per event. A receipt links the order's download page
 * (shared/product-files) and shows its licence keys (shared/licenses).
 */
export const receipts = defineCapability({
  name: 'receipts',
  consumers: [receiptConsumer, failedPaymentConsumer],
});
