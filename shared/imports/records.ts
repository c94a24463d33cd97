import type { Kind } from './platforms';
import type { Mapping } from './rules';

export type ImportStatus = 'draft' | 'running' | 'completed' | 'failed' | 'canceled';
export type RowState = 'pending' | 'created' | 'existing' | 'skipped' | 'failed';
/** Progress counters, one per kind and outcome (flat attributes so a row's transaction can add to them). */
export const OUTCOMES = ['created', 'existing', 'skipped', 'failed'] as const;
export type Outcome = (typeof OUTCOMES)[number];
export const counterName = (kind: Kind, outcome: Outcome): `n_${string}` => `n_${kind}_${outcome}`;

export interface ImportFile {
  kind: Kind;
  filename: string;
  header: string[];
  rowCount: number;
  mapping: Mapping;
  /** The CSV as sent, kept in the blob store (S3) for the report and a later re-read. */
  blobKey: string;
  addedAt: string;
  /** `api`: pulled by `connect` (consent source `<platform>_api`); a CSV upload otherwise. */
  origin?: 'csv' | 'api';
  /** This upload's id (in its blob key): a file worker's messages name it, so a stale one does nothing. */
  uploadId?: string;
}

export interface ImportRecord {
  _id: string;
  source: string;
  status: ImportStatus;
  files: Partial<Record<Kind, ImportFile>>;
  dryRun: Record<string, unknown> | null;
  /** A dry run asked for and being computed by the worker (large imports); null once it lands. */
  dryRunRequestedAt?: string | null;
  createdBy: { type: 'user' | 'admin' };
  /** The next row to run: rows before it (in run order) are done. */
  cursor: string | null;
  leaseUntil: number;
  cancelRequested: boolean;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Counters `n_<kind>_<outcome>`, read through progressOf. */
  [counter: `n_${string}`]: number | undefined;
  /**
   * Large files: `storing_<kind>` holds the upload id while a queue worker stores the file's rows
   * (the file is `processing`), `stored_<kind>` how many are stored; `purging_<kind>` the upload id
   * of a removed file whose rows are being deleted. Top-level attributes, so a worker never
   * rewrites the `files` map another request may be changing.
   */
  [storing: `storing_${string}`]: string | undefined;
  [stored: `stored_${string}`]: number | undefined;
  [purging: `purging_${string}`]: string | undefined;
}

/** One CSV row, in run order (`<kind order>#<row number>`), with its per-row marker `state`. */
export interface RowRecord {
  sk: string;
  kind: Kind;
  n: number;
  raw: string[];
  state: RowState;
  reason?: string | null;
  /** What it became (product id, contact id, imported order key). */
  ref?: string | null;
  /** Products: the file downloaded from the row's link. */
  file?: ProductFile;
}

/** A product file fetched from an export's link, kept in the blob store and attached to the product. */
export interface ProductFile {
  blobKey: string;
  filename: string;
  contentType: string;
  size: number;
  sourceUrl: string;
}

/** Purchase history: an imported record, never a sale (no revenue, fees, payouts or webhooks). */
export interface ImportedOrder {
  key: string;
  importId: string;
  source: string;
  orderId: string | null;
  email: string;
  productId: string | null;
  productName: string | null;
  amountCents: number | null;
  currency: string | null;
  date: string | null;
  refunded: boolean;
  importedAt: string;
}

export interface ImportedCustomer {
  email: string;
  name: string | null;
  country: string | null;
  source: string;
  importId: string;
  importedAt: string;
}
