import { defineCapability } from '../platform/capability';
import { failedPaymentConsumer, receiptConsumer } from './consumers';
import { downloadOperations } from './operations';
import { refundMailConsumer } from './notice-consumers';

/**
 * The mails a buyer gets after a charge (receipt, failed payment with the card-update request,
 * refund) and the store owner's new-sale notice (off with the email setting `saleNotifications`),
 * queued from committed sale and subscription events for the email capability's worker
 * (shared/email/outbox.ts), once per event; and the download links of purchased product files (thank-you page and
 * receipt), served on the checkout function.
 */
export const receipts = defineCapability({
  name: 'receipts',
  build: {
    manifest: { url: import.meta.url, export: 'receipts' },
    operations: './operations#downloadOperations',
    workers: { 'buyer-receipts': './consumers#receiptConsumer', 'buyer-payment-failed': './consumers#failedPaymentConsumer', 'buyer-refunds': './notice-consumers#refundMailConsumer' },
  },
  operations: downloadOperations,
  apiFunction: 'checkout',
  needs: ['table', 'blob'],
  consumers: [receiptConsumer, failedPaymentConsumer, refundMailConsumer],
});
