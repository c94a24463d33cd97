import type { Mode } from '../../store/keys';

/** Images as stored: the record in the tenant's partition, and the public file capability by token. */
export const IMAGE = 'IMAGE';

export interface ImageRecord {
  _id: string;
  /** Unguessable part of the public file address. */
  fileToken: string;
  blobKey: string;
  contentType: string;
  size: number;
  filename: string;
  testMode: boolean;
  createdAt: string;
}

/** What the public file route finds by token: enough to serve the bytes, nothing else. */
export interface ImageFileCapability {
  accountId: string;
  mode: Mode;
  imageId: string;
  blobKey: string;
  contentType: string;
}
