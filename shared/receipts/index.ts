import { defineCapability } from '../platform/capability';
import { failedPaymentConsumer, receiptConsumer } from './consumers';

/**
 * The mails a buyer gets after a charge (receipt, failed payment with the card-update request),
 * sent from committed sale and subscription events through the email capability's transactional
 * send, once per event.
 */
export const receipts = defineCapability({
  name: 'receipts',
  operations: [],
  needs: ['table', 'email', 'encryption'],
  consumers: [receiptConsumer, failedPaymentConsumer],
});
