/**
 * The spreadsheet provider as the sheets capability sees it. Google Sheets implements it in AWS
 * (shared/adapters/spreadsheet-google), CSV files with a one-click consent page implement it in
 * the local runtime (shared/adapters/spreadsheet-local). Tokens are handed in and out as plain
 * values: the capability encrypts them at rest, adapters never store them.
 */
export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string;
  /** Epoch milliseconds. */
  expiresAt?: number;
  /** Permissions granted, space separated. */
  scope?: string;
}

/** The tokens of one connection for one call; an adapter replaces `tokens` after a refresh. */
export interface ProviderSession {
  tokens: ProviderTokens;
}

export type Cell = string | number;

export interface SheetTab {
  title: string;
  header: string[];
}

export interface CreatedSpreadsheet {
  spreadsheetId: string;
  title: string;
  url: string;
}

/**
 * Why the provider refused: `unauthorized` (grant revoked or expired: syncing pauses until the
 * creator reconnects), `not_found` (spreadsheet deleted or no longer shared with the app: pauses),
 * `rate_limited` and `unavailable` (retried with back-off), `refused` (any other refusal, retried).
 */
export type SpreadsheetErrorCode = 'unauthorized' | 'not_found' | 'rate_limited' | 'unavailable' | 'refused';

export class SpreadsheetError extends Error {
  constructor(
    message: string,
    readonly code: SpreadsheetErrorCode,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'SpreadsheetError';
  }
}

export interface SpreadsheetPort {
  /** The one permission requested (file-scoped: create and edit only the files the app created). */
  readonly permission: string;
  /** Where the creator grants access; the provider then redirects to `redirectUri` with a code. */
  consentUrl(input: { state: string; redirectUri: string }): string;
  exchangeCode(input: { code: string; redirectUri: string }): Promise<ProviderTokens>;
  createSpreadsheet(session: ProviderSession, input: { title: string; tabs: SheetTab[] }): Promise<CreatedSpreadsheet>;
  /** One append of many rows at the bottom of a tab (numbers stay numbers). */
  append(session: ProviderSession, spreadsheetId: string, tab: string, rows: Cell[][]): Promise<void>;
  /** The values of one column (for example `B`), header included; used to skip rows already written. */
  readColumn(session: ProviderSession, spreadsheetId: string, tab: string, column: string): Promise<string[]>;
  /** Overwrites cells, all in one call (`Sales!M7`). */
  updateCells(session: ProviderSession, spreadsheetId: string, updates: { range: string; values: Cell[][] }[]): Promise<void>;
  /** Revokes the grant at the provider. */
  revoke(tokens: ProviderTokens): Promise<void>;
}

declare module '../platform/ports' {
  interface Ports {
    spreadsheet: SpreadsheetPort;
  }
}
