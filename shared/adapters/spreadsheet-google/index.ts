import type { sheets_v4 } from '@googleapis/sheets';
import type { Credentials } from 'google-auth-library/build/src/auth/credentials';
// The OAuth client alone: the package's index also loads every other Google credential type
// (service accounts, workload identity, metadata server; -120 KiB a bundle) that a user's OAuth
// grant never needs. The package has no exports map, so this path is public to Node as to esbuild.
import { OAuth2Client } from 'google-auth-library/build/src/auth/oauth2client';
import { ApiError } from '../../platform/errors';
import type { Config } from '../../platform/config';
import {
  SpreadsheetError,
  type Cell,
  type CreatedSpreadsheet,
  type ProviderSession,
  type ProviderTokens,
  type SheetTab,
  type SpreadsheetPort,
} from '../../sheets/port';
import { statusOf, withBackoff, type BackoffOptions } from './backoff';

/** File-scoped: the app may create spreadsheets and see or edit only those it created. */
export const DRIVE_FILE_SCOPE = 'https://www.googleapis.com/auth/drive.file';

export interface GoogleSpreadsheetOptions {
  clientId: string;
  clientSecret: string;
  /** Overrides for tests (a fake server on loopback) and for private endpoints. */
  authBaseUrl?: string;
  tokenUrl?: string;
  revokeUrl?: string;
  sheetsRootUrl?: string;
  backoff?: Partial<BackoffOptions>;
}

const DEFAULT_BACKOFF: BackoffOptions = { retries: 4, baseDelayMs: 500, maxDelayMs: 32_000 };

const SHEETS_ROOT_URL = 'https://sheets.googleapis.com/';

/** A path parameter as the generated client expands it (RFC 6570): all but unreserved characters encoded, `!` too. */
const param = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function toProviderError(error: unknown): SpreadsheetError {
  if (error instanceof SpreadsheetError) return error;
  const status = statusOf(error);
  const message = (error as Error)?.message ?? 'Google Sheets error';
  const body = (error as { response?: { data?: { error?: unknown } } })?.response?.data?.error;
  if (status === 401 || body === 'invalid_grant' || /invalid_grant/.test(message)) return new SpreadsheetError(message, 'unauthorized', status);
  if (status === 404) return new SpreadsheetError(message, 'not_found', status);
  // 403 on a file the app can no longer reach (drive.file: the user removed access to it).
  if (status === 403 && /permission|not have access/i.test(message)) return new SpreadsheetError(message, 'not_found', status);
  if (status === 429) return new SpreadsheetError(message, 'rate_limited', status);
  if (status === undefined || status >= 500) return new SpreadsheetError(message, 'unavailable', status);
  return new SpreadsheetError(message, 'refused', status);
}

const toTokens = (credentials: Credentials, previous?: ProviderTokens): ProviderTokens => ({
  accessToken: credentials.access_token ?? previous?.accessToken ?? '',
  refreshToken: credentials.refresh_token ?? previous?.refreshToken,
  expiresAt: credentials.expiry_date ?? previous?.expiresAt,
  scope: credentials.scope ?? previous?.scope,
});

/**
 * Google Sheets through the official clients (`@googleapis/sheets`, `google-auth-library`):
 * OAuth 2.0 authorization code with offline access and the `drive.file` scope only; one
 * `values.append` per tab per batch (RAW, so numbers stay numbers); back-off on 429 and 5xx.
 */
export class GoogleSpreadsheets implements SpreadsheetPort {
  readonly permission = DRIVE_FILE_SCOPE;
  private readonly backoff: BackoffOptions;

  constructor(private readonly options: GoogleSpreadsheetOptions) {
    this.backoff = { ...DEFAULT_BACKOFF, ...(options.backoff ?? {}) };
  }

  private oauth(redirectUri?: string): OAuth2Client {
    return new OAuth2Client({
      // Node's own fetch for every call (tokens, revoke, the Sheets API all go through this
      // client's transporter), rather than gaxios's node-fetch fallback: the same client locally
      // and in Lambda, where the bundle leaves node-fetch out (shared/composition/esbuild-options.ts).
      transporterOptions: { fetchImplementation: fetch },
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      redirectUri,
      endpoints: {
        ...(this.options.authBaseUrl ? { oauth2AuthBaseUrl: this.options.authBaseUrl } : {}),
        ...(this.options.tokenUrl ? { oauth2TokenUrl: this.options.tokenUrl } : {}),
        ...(this.options.revokeUrl ? { oauth2RevokeUrl: this.options.revokeUrl } : {}),
      },
    });
  }

  consentUrl(input: { state: string; redirectUri: string }): string {
    return this.oauth(input.redirectUri).generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [DRIVE_FILE_SCOPE], state: input.state });
  }

  async exchangeCode(input: { code: string; redirectUri: string }): Promise<ProviderTokens> {
    try {
      const { tokens } = await withBackoff(
        () => this.oauth(input.redirectUri).getToken({ code: input.code, redirect_uri: input.redirectUri }),
        this.backoff,
        false,
      );
      return toTokens(tokens);
    } catch (error) {
      throw toProviderError(error);
    }
  }

  async revoke(tokens: ProviderTokens): Promise<void> {
    try {
      await withBackoff(() => this.oauth().revokeToken(tokens.refreshToken ?? tokens.accessToken), this.backoff, true);
    } catch (error) {
      throw toProviderError(error);
    }
  }

  /** An OAuth client for one session; refreshed tokens are handed back on the session. */
  private authorized(session: ProviderSession): OAuth2Client {
    const auth = this.oauth();
    auth.setCredentials({
      access_token: session.tokens.accessToken,
      refresh_token: session.tokens.refreshToken,
      expiry_date: session.tokens.expiresAt,
      scope: session.tokens.scope,
    });
    auth.on('tokens', (credentials) => {
      session.tokens = toTokens(credentials, session.tokens);
    });
    return auth;
  }

  /**
   * One Sheets API v4 call through the session's OAuth client, as the generated client makes it
   * (`client.request`: the bearer token, a refresh when it has expired and one retry after a 401);
   * the generated client itself is left out, its 300 methods and query-string library unused for
   * the four calls made here. Path parameters are encoded as it encodes them; the client's own
   * retries are off (withBackoff decides what is safe to repeat).
   */
  private async sheetsCall<T>(
    session: ProviderSession,
    safeToRepeat: boolean,
    request: { method: 'GET' | 'POST'; path: string; params?: Record<string, string | boolean>; data?: unknown },
  ): Promise<T> {
    const auth = this.authorized(session);
    const root = this.options.sheetsRootUrl ?? SHEETS_ROOT_URL;
    const url = `${root.endsWith('/') ? root : `${root}/`}v4/spreadsheets${request.path}`;
    try {
      const response = await withBackoff(
        () => auth.request<T>({ url, method: request.method, params: request.params, data: request.data, retry: false }),
        this.backoff,
        safeToRepeat,
      );
      return response.data;
    } catch (error) {
      throw toProviderError(error);
    }
  }

  async createSpreadsheet(session: ProviderSession, input: { title: string; tabs: SheetTab[] }): Promise<CreatedSpreadsheet> {
    const requestBody: sheets_v4.Schema$Spreadsheet = {
      properties: { title: input.title },
      sheets: input.tabs.map((tab, index) => ({
        properties: { sheetId: index, title: tab.title, gridProperties: { frozenRowCount: 1 } },
        data: [{ startRow: 0, startColumn: 0, rowData: [{ values: tab.header.map((text) => ({ userEnteredValue: { stringValue: text } })) }] }],
      })),
    };
    const data = await this.sheetsCall<sheets_v4.Schema$Spreadsheet>(session, false, {
      method: 'POST',
      path: '',
      params: { fields: 'spreadsheetId,spreadsheetUrl,properties.title' },
      data: requestBody,
    });
    return {
      spreadsheetId: data.spreadsheetId!,
      title: data.properties?.title ?? input.title,
      url: data.spreadsheetUrl ?? `https://docs.google.com/spreadsheets/d/${data.spreadsheetId}`,
    };
  }

  async append(session: ProviderSession, spreadsheetId: string, tab: string, rows: Cell[][]): Promise<void> {
    const requestBody: sheets_v4.Schema$ValueRange = { majorDimension: 'ROWS', values: rows };
    await this.sheetsCall<sheets_v4.Schema$AppendValuesResponse>(session, false, {
      method: 'POST',
      path: `/${param(spreadsheetId)}/values/${param(`${tab}!A1`)}:append`,
      params: { valueInputOption: 'RAW', insertDataOption: 'INSERT_ROWS', includeValuesInResponse: false },
      data: requestBody,
    });
  }

  async readColumn(session: ProviderSession, spreadsheetId: string, tab: string, column: string): Promise<string[]> {
    const data = await this.sheetsCall<sheets_v4.Schema$ValueRange>(session, true, {
      method: 'GET',
      path: `/${param(spreadsheetId)}/values/${param(`${tab}!${column}:${column}`)}`,
      params: { majorDimension: 'COLUMNS', valueRenderOption: 'UNFORMATTED_VALUE' },
    });
    return (data.values?.[0] ?? []).map((value) => String(value ?? ''));
  }

  async updateCells(session: ProviderSession, spreadsheetId: string, updates: { range: string; values: Cell[][] }[]): Promise<void> {
    const requestBody: sheets_v4.Schema$BatchUpdateValuesRequest = {
      valueInputOption: 'RAW',
      data: updates.map((u) => ({ range: u.range, majorDimension: 'ROWS', values: u.values })),
    };
    // Overwriting the same cells again is harmless, so 5xx is retried too.
    await this.sheetsCall<sheets_v4.Schema$BatchUpdateValuesResponse>(session, true, {
      method: 'POST',
      path: `/${param(spreadsheetId)}/values:batchUpdate`,
      data: requestBody,
    });
  }
}

/** Encryption context of the KMS-encrypted client secret (`aws kms encrypt --encryption-context`). */
export const CLIENT_SECRET_CONTEXT = { purpose: 'google-client-secret' } as const;

/** Decrypts a ciphertext made with the deployment's key (the encryption port in AWS). */
export type SecretDecrypter = (ciphertext: string, context: Record<string, string>) => Promise<string>;

type ClientOptions = Omit<GoogleSpreadsheetOptions, 'clientSecret'>;

/** The seller's Google OAuth client, from configuration (see docs/deploy.md). */
export function googleOptionsFrom(config: Config): GoogleSpreadsheetOptions | undefined {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) return undefined;
  return { ...clientOptionsFrom(config, config.GOOGLE_CLIENT_ID), clientSecret: config.GOOGLE_CLIENT_SECRET };
}

const clientOptionsFrom = (config: Config, clientId: string): ClientOptions => ({
  clientId,
  authBaseUrl: config.GOOGLE_OAUTH_AUTH_URL,
  tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
  revokeUrl: config.GOOGLE_OAUTH_REVOKE_URL,
  sheetsRootUrl: config.GOOGLE_SHEETS_ROOT_URL,
});

/**
 * The Google client whose secret arrives encrypted with the deployment's KMS key
 * (`GOOGLE_CLIENT_SECRET_ENCRYPTED`), so the plain secret never sits in the function's
 * configuration. It is decrypted once per container, on the first call that needs it; a failed
 * decryption is retried on the next call. The consent link carries only the client id.
 */
export class SealedSecretSpreadsheets implements SpreadsheetPort {
  readonly permission = DRIVE_FILE_SCOPE;
  private google?: Promise<GoogleSpreadsheets>;

  constructor(
    private readonly options: ClientOptions,
    private readonly ciphertext: string,
    private readonly decrypt: SecretDecrypter,
  ) {}

  private unsealed(): Promise<GoogleSpreadsheets> {
    this.google ??= this.decrypt(this.ciphertext, { ...CLIENT_SECRET_CONTEXT })
      .then((clientSecret) => new GoogleSpreadsheets({ ...this.options, clientSecret }))
      .catch((error: unknown) => {
        this.google = undefined;
        throw error;
      });
    return this.google;
  }

  consentUrl(input: { state: string; redirectUri: string }): string {
    return new GoogleSpreadsheets({ ...this.options, clientSecret: '' }).consentUrl(input);
  }
  exchangeCode: SpreadsheetPort['exchangeCode'] = async (input) => (await this.unsealed()).exchangeCode(input);
  createSpreadsheet: SpreadsheetPort['createSpreadsheet'] = async (session, input) => (await this.unsealed()).createSpreadsheet(session, input);
  append: SpreadsheetPort['append'] = async (session, spreadsheetId, tab, rows) => (await this.unsealed()).append(session, spreadsheetId, tab, rows);
  readColumn: SpreadsheetPort['readColumn'] = async (session, spreadsheetId, tab, column) =>
    (await this.unsealed()).readColumn(session, spreadsheetId, tab, column);
  updateCells: SpreadsheetPort['updateCells'] = async (session, spreadsheetId, updates) => (await this.unsealed()).updateCells(session, spreadsheetId, updates);
  revoke: SpreadsheetPort['revoke'] = async (tokens) => (await this.unsealed()).revoke(tokens);
}

/** Refuses every call with a clear reason when no Google client is configured. */
class UnconfiguredSpreadsheets implements SpreadsheetPort {
  readonly permission = DRIVE_FILE_SCOPE;
  private fail(): never {
    throw new ApiError(
      503,
      'Google Sheets is not configured on this deployment: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET_ENCRYPTED (or GOOGLE_CLIENT_SECRET)',
      { code: 'SHEETS_NOT_CONFIGURED' },
    );
  }
  consentUrl(): string {
    return this.fail();
  }
  exchangeCode = async () => this.fail();
  createSpreadsheet = async () => this.fail();
  append = async () => this.fail();
  readColumn = async () => this.fail();
  updateCells = async () => this.fail();
  revoke = async () => this.fail();
}

/**
 * The spreadsheet port from configuration: a secret encrypted with the deployment's key (what the
 * CDK stacks pass), else a plain one (local and tests), else a port that answers 503.
 */
export const googleSpreadsheetFactory = (config: Config, decrypt?: SecretDecrypter): SpreadsheetPort => {
  if (config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET_ENCRYPTED && decrypt) {
    return new SealedSecretSpreadsheets(clientOptionsFrom(config, config.GOOGLE_CLIENT_ID), config.GOOGLE_CLIENT_SECRET_ENCRYPTED, decrypt);
  }
  const options = googleOptionsFrom(config);
  return options ? new GoogleSpreadsheets(options) : new UnconfiguredSpreadsheets();
};
