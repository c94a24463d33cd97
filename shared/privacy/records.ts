/**
 * One erasure request for one customer. The email is kept only while the erasure runs (every part
 * finds its records by it) and removed when it completes; its hash stays on the do-not-recreate
 * list (shared/platform/privacy.ts).
 */
export interface ErasureRecord {
  _id: string;
  customerId: string;
  email?: string;
  status: 'running' | 'completed';
  /** The parts that finished (a string set): a resumed erasure skips these. */
  done?: Set<string>;
  requestedAt: string;
  completedAt?: string;
  /** Times the queue picked it up (a crash or a failing part makes it run again). */
  runs: number;
  lastError?: string;
}

export const ERASURE_QUEUE = 'privacy-erasure';

/**
 * A buyer export written to the blob store, and the link that downloads it for a short while. The
 * object itself goes the next day (the bucket's lifecycle rule on `exports/`).
 */
export interface ExportLinkRecord {
  accountId: string;
  mode: 'live' | 'test';
  customerId: string;
  blobKey: string;
  filename: string;
  bytes: number;
  validUntil: string;
}

/** Where exports are written: the bucket expires this prefix after a day (lib/data-stack.ts). */
export const EXPORT_PREFIX = 'exports';
/** An export link works this long: enough to start the download, too short to pass around. */
export const EXPORT_LINK_MS = 15 * 60 * 1000;
