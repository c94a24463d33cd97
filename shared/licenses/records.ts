import type { Scope } from '../store/keys';

/**
 * A licence key of one paid order. Found by the key's hash (the public routes), by id, by order
 * and by product (the seller). The key itself is kept only encrypted, for the order's reader and
 * the receipt; the hash is what the public routes look up.
 */
export interface LicenseRecord {
  _id: string;
  scope: Scope;
  keyHash: string;
  /** The first group of the key, readable. */
  prefix: string;
  /** The key, encrypted (context: account, mode, licence id). */
  keyCiphertext: string;
  productId: string;
  productName: string;
  orderId: string;
  customerEmail: string;
  status: 'active' | 'revoked' | 'refunded';
  activationLimit: number;
  activations: number;
  /** When the key stops working (the product's expiresInDays); never when null. Not `expiresAt`: that name is the table's TTL. */
  endsAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One machine (or install) a key is activated on. */
export interface LicenseInstance {
  id: string;
  licenseId: string;
  name: string;
  createdAt: string;
}
