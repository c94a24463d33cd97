/**
 * What other capabilities call on refund policies (catalog checks a product's reference). Not the
 * service: it calls the catalog for appliedTo counts, and the catalog calls this.
 */
export { refundPolicyExists } from './lookup';
