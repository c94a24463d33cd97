import type { Cell } from './port';

export type PauseReason = 'access_removed' | 'spreadsheet_deleted';

/** One connection per account and mode. Tokens are stored encrypted and never returned. */
export interface ConnectionRecord {
  status: 'connected' | 'disconnected';
  /** Provider tokens, encrypted with the encryption port (KMS in AWS); absent once disconnected. */
  tokens?: string;
  spreadsheetId?: string;
  spreadsheetTitle?: string;
  spreadsheetUrl?: string;
  tabs: { sales: boolean; customers: boolean };
  pausedReason?: PauseReason | null;
  /** Refused attempts in a row of the current batch. */
  attempts: number;
  nextAttemptAt?: string | null;
  lastError?: string | null;
  lastSyncedAt?: string | null;
  lastSyncNowAt?: string | null;
  /**
   * Set before rows are sent and cleared once they are recorded as written: a run that finds it set
   * (a crash or an ambiguous failure in between) reads the key column first and skips rows already
   * in the sheet, so each sale is written once per spreadsheet.
   */
  uncertain?: boolean;
  syncedCount: number;
  pendingCount: number;
  failedCount: number;
  connectedAt: string;
  updatedAt: string;
}

export type RowTab = 'S' | 'C';

/** A row waiting for the batch (or Failed after 8 refused attempts), keyed `<tab>#<key>`. */
export interface PendingRow {
  sk: string;
  tab: RowTab;
  /** Order id (Sales) or lower-cased email (Customers): what the sheet is de-duplicated on. */
  key: string;
  cells: Cell[];
  queuedAt: string;
}

/** A status change of a sale already written: the batch rewrites its status cell. */
export interface StatusUpdate {
  saleId: string;
  status: string;
}

export interface CreatedSheetRecord {
  spreadsheetId: string;
  title: string;
  url: string;
  createdAt: string;
}

/**
 * An erased buyer (shared/privacy): the next batch blanks the address and name of the rows already
 * written with `email` (the Sales tab's email column, the Customers tab's key column). The address
 * is kept here only until that batch has run.
 */
export interface SheetErasure {
  email: string;
  queuedAt: string;
}
