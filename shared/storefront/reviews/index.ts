/** The receipt capability contract: checkout writes it per completed sale; it permits one review. */
export { RECEIPT_CAPABILITY_ENTITY, RECEIPT_CAPABILITY_KIND, type ReceiptCapability } from './records';
