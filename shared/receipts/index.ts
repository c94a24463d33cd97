import { defineCapability } from '../platform/capability';
import { failedPaymentConsumer, receiptConsumer } from './consumers';
import { downloadOperations } from './operations';

/**
 * The mails a buyer gets after a charge (receipt, failed payment with the card-update request),
 * sent from committed sale and subscription events through the email capability's transactional
 * send, once per event; and the download links of purchased product files (thank-you page and
 * receipt), served on the checkout function.
 */
export const receipts = defineCapability({
  name: 'receipts',
  operations: downloadOperations,
  apiFunction: 'checkout',
  needs: ['table', 'email', 'encryption', 'blob'],
  consumers: [receiptConsumer, failedPaymentConsumer],
});
