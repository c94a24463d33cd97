import { defineCapability } from '../platform/capability';
import { failedPaymentConsumer, receiptConsumer } from './consumers';
import { refundMailConsumer } from './notice-consumers';

/**
 * The mails a buyer gets after a charge (receipt, failed payment with the card-update request,
 * refund) and the store owner's new-sale notice (off with the email setting `saleNotifications`),
 * queued from committed sale and subscription events for the email capability's worker
 * (shared/email/outbox.ts), once per event. A receipt links the order's download page
 * (shared/product-files) and shows its licence keys (shared/licenses).
 */
export const receipts = defineCapability({
  name: 'receipts',
  build: {
    manifest: { url: import.meta.url, export: 'receipts' },
    workers: {
      'buyer-receipts': './consumers#receiptConsumer',
      'buyer-payment-failed': './consumers#failedPaymentConsumer',
      'buyer-refunds': './notice-consumers#refundMailConsumer',
    },
  },
  consumers: [receiptConsumer, failedPaymentConsumer, refundMailConsumer],
});
