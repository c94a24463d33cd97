import type { Scope } from '../store/keys';

/** A file a product delivers to its buyers: uploaded by the seller or attached by an import. */
export interface ProductFileRecord {
  _id: string;
  productId: string;
  name: string;
  size: number;
  contentType: string;
  /** Where the bytes are (never shown). */
  blobKey: string;
  source: 'upload' | 'import';
  /** The export's link an import fetched it from. */
  sourceUrl?: string;
  createdAt: string;
}

/**
 * A file being uploaded in parts straight to the blob store (S3 multipart in AWS): what the seller
 * declared, checked before any byte moved, and the store's upload id. Becomes a file on complete;
 * gone by TTL a day after it began (the bucket's lifecycle rule drops its parts).
 */
export interface ProductFileUpload {
  _id: string;
  productId: string;
  name: string;
  size: number;
  contentType: string;
  blobKey: string;
  /** The blob store's own upload id (never shown). */
  storeUploadId: string;
  partSize: number;
  partCount: number;
  createdAt: string;
}

/**
 * One order's access to the files it bought: how many downloads it made (against the product's
 * limit) and, after a full refund or a dispute, when access ended. Written on the first download
 * or the revocation, whichever comes first.
 */
export interface DownloadGrant {
  orderId: string;
  used?: number;
  revokedAt?: string;
  revokedReason?: 'refunded' | 'disputed';
}

/** A short-lived signed download: the token is the secret of its address; it names one file of one order. */
export interface DownloadToken {
  token: string;
  scope: Scope;
  productId: string;
  fileId: string;
  /** The order it was handed out for; the order's grant counts and revokes it. */
  orderId: string;
  /** The product's per-order limit when the link was made; none when absent. */
  limit?: number;
  validUntil: string;
  createdAt: string;
}

/**
 * The lasting link of a receipt mail: it opens a page that signs fresh download links for the
 * order, so the mail keeps working after each signed link has expired.
 */
export interface OrderAccessLink {
  token: string;
  scope: Scope;
  orderId: string;
  productIds: string[];
  createdAt: string;
}

/** What an order's reader gets per file: a fresh signed link. */
export interface OrderDownload {
  fileId: string;
  name: string;
  size: number;
  url: string;
  expiresAt: string;
}
