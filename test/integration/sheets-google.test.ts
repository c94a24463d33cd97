import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LocalEncryption } from '../../shared/adapters/local/encryption';
import {
  CLIENT_SECRET_CONTEXT,
  DRIVE_FILE_SCOPE,
  GoogleSpreadsheets,
  SealedSecretSpreadsheets,
  googleSpreadsheetFactory,
} from '../../shared/adapters/spreadsheet-google/index';
import { configFrom } from '../../shared/platform/config';
import { TABS } from '../../shared/sheets/layout';
import { SpreadsheetError, type ProviderSession } from '../../shared/sheets/port';

/** A fake of Google's OAuth token, revoke and Sheets v4 endpoints on loopback, recording each request. */
interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}
let server: Server;
let base: string;
let requests: Recorded[] = [];
let scripted: { status: number; body: unknown; headers?: Record<string, string> }[] = [];

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url!, 'http://x');
    requests.push({
      method: req.method!,
      path: decodeURIComponent(url.pathname),
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString(),
      at: Date.now(),
    });
    const next = scripted.shift();
    if (next) return json(res, next.status, next.body, next.headers);
    if (url.pathname === '/token')
      return json(res, 200, { access_token: 'at-2', refresh_token: 'rt-1', expires_in: 3600, scope: DRIVE_FILE_SCOPE, token_type: 'Bearer' });
    if (url.pathname === '/revoke') return json(res, 200, {});
    if (url.pathname === '/v4/spreadsheets')
      return json(res, 200, { spreadsheetId: 'ss1', spreadsheetUrl: 'https://docs.example/ss1', properties: { title: 'Shop sales' } });
    if (url.pathname.endsWith(':append')) return json(res, 200, { updates: { updatedRows: 1 } });
    if (url.pathname.endsWith(':batchUpdate')) return json(res, 200, {});
    if (req.method === 'GET') return json(res, 200, { values: [['Order ID', 'o1', 'o2']] });
    json(res, 404, { error: { code: 404, message: 'unknown' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = [];
  scripted = [];
});

const adapter = () =>
  new GoogleSpreadsheets({
    clientId: 'client-1',
    clientSecret: 'secret-1',
    authBaseUrl: `${base}/auth`,
    tokenUrl: `${base}/token`,
    revokeUrl: `${base}/revoke`,
    sheetsRootUrl: `${base}/`,
    backoff: { retries: 3, baseDelayMs: 20, maxDelayMs: 200 },
  });
const session = (): ProviderSession => ({ tokens: { accessToken: 'at-1', refreshToken: 'rt-1', expiresAt: Date.now() + 3600_000, scope: DRIVE_FILE_SCOPE } });

describe('Google spreadsheet adapter against a fake Google', () => {
  it('asks for the file-scoped permission only, offline, with the state and redirect', () => {
    const url = new URL(adapter().consentUrl({ state: 'st-1', redirectUri: 'https://api.example.com/sheets-sync/callback' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${base}/auth`);
    expect(url.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/drive.file');
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('client-1');
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('redirect_uri')).toBe('https://api.example.com/sheets-sync/callback');
  });

  it('exchanges the code at the token endpoint with the client credentials', async () => {
    const tokens = await adapter().exchangeCode({ code: 'code-1', redirectUri: 'https://api.example.com/sheets-sync/callback' });
    expect(tokens).toMatchObject({ accessToken: 'at-2', refreshToken: 'rt-1', scope: DRIVE_FILE_SCOPE });
    expect(requests).toHaveLength(1);
    const form = new URLSearchParams(requests[0]!.body);
    expect(requests[0]!.method).toBe('POST');
    expect(Object.fromEntries(form)).toMatchObject({
      code: 'code-1',
      client_id: 'client-1',
      client_secret: 'secret-1',
      redirect_uri: 'https://api.example.com/sheets-sync/callback',
      grant_type: 'authorization_code',
    });
  });

  it('creates the spreadsheet with both tabs and their header rows in one call', async () => {
    const created = await adapter().createSpreadsheet(session(), { title: 'Shop sales', tabs: TABS });
    expect(created).toEqual({ spreadsheetId: 'ss1', title: 'Shop sales', url: 'https://docs.example/ss1' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers.authorization).toBe('Bearer at-1');
    const body = JSON.parse(requests[0]!.body);
    expect(body.properties.title).toBe('Shop sales');
    expect(body.sheets.map((s: any) => s.properties.title)).toEqual(['Sales', 'Customers']);
    expect(body.sheets[0].data[0].rowData[0].values.map((v: any) => v.userEnteredValue.stringValue)).toEqual(TABS[0]!.header);
    expect(body.sheets[1].data[0].rowData[0].values.map((v: any) => v.userEnteredValue.stringValue)).toEqual(TABS[1]!.header);
  });

  it('appends a whole batch in one request, raw, numbers as numbers', async () => {
    await adapter().append(session(), 'ss1', 'Sales', [
      ['2024-01-01 00:00:00', 'o1', 'Guide', 'one-time', 'a@x.com', 'A', 'DE', 29.99, 0, 0, 29.99, 'USD', 'paid'],
      ['2024-01-01 00:01:00', 'o2', 'Guide', 'renewal', 'b@x.com', 'B', 'US', 12, 0, 0, 12, 'USD', 'paid'],
    ]);
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req!.method).toBe('POST');
    expect(req!.path).toBe('/v4/spreadsheets/ss1/values/Sales!A1:append');
    expect(req!.query.get('valueInputOption')).toBe('RAW');
    expect(req!.query.get('insertDataOption')).toBe('INSERT_ROWS');
    const body = JSON.parse(req!.body);
    expect(body.values).toHaveLength(2);
    expect(body.values[0][7]).toBe(29.99);
    expect(typeof body.values[1][10]).toBe('number');
  });

  it('backs off on 429, honouring Retry-After, then succeeds', async () => {
    scripted = [
      { status: 429, body: { error: { code: 429, message: 'Quota exceeded' } } },
      { status: 429, body: { error: { code: 429, message: 'Quota exceeded' } }, headers: { 'retry-after': '0.15' } },
    ];
    await adapter().append(session(), 'ss1', 'Customers', [['2024-01-01 00:00:00', 'a@x.com', 'A', 'DE', 'o1', 'Guide']]);
    expect(requests.map((r) => r.path)).toEqual(Array(3).fill('/v4/spreadsheets/ss1/values/Customers!A1:append'));
    const gaps = [requests[1]!.at - requests[0]!.at, requests[2]!.at - requests[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(18);
    expect(gaps[1]).toBeGreaterThanOrEqual(145);
  });

  it('does not repeat an append after a 5xx (it may have written), but retries a read', async () => {
    scripted = [{ status: 503, body: { error: { code: 503, message: 'Backend Error' } } }];
    const error = await adapter()
      .append(session(), 'ss1', 'Sales', [['x']])
      .catch((e) => e);
    expect(error).toBeInstanceOf(SpreadsheetError);
    expect(error.code).toBe('unavailable');
    expect(requests).toHaveLength(1);
    requests = [];
    scripted = [{ status: 500, body: { error: { code: 500, message: 'Internal' } } }];
    expect(await adapter().readColumn(session(), 'ss1', 'Sales', 'B')).toEqual(['Order ID', 'o1', 'o2']);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.path).toBe('/v4/spreadsheets/ss1/values/Sales!B:B');
    expect(requests[1]!.query.get('majorDimension')).toBe('COLUMNS');
  });

  it('gives up after the retries and reports rate_limited', async () => {
    scripted = Array(4).fill({ status: 429, body: { error: { code: 429, message: 'Quota exceeded' } } });
    const error = await adapter()
      .append(session(), 'ss1', 'Sales', [['x']])
      .catch((e) => e);
    expect(error.code).toBe('rate_limited');
    expect(requests).toHaveLength(4);
  });

  it('reports a revoked grant (401) as unauthorized and a deleted spreadsheet (404) as not_found', async () => {
    scripted = [{ status: 401, body: { error: { code: 401, message: 'Request had invalid authentication credentials.' } } }];
    expect(
      (
        await adapter()
          .append(session(), 'ss1', 'Sales', [['x']])
          .catch((e) => e)
      ).code,
    ).toBe('unauthorized');
    scripted = [{ status: 404, body: { error: { code: 404, message: 'Requested entity was not found.' } } }];
    expect(
      (
        await adapter()
          .append(session(), 'gone', 'Sales', [['x']])
          .catch((e) => e)
      ).code,
    ).toBe('not_found');
  });

  it('refreshes an expired access token with the refresh token and hands the new one back', async () => {
    const s: ProviderSession = { tokens: { accessToken: 'old', refreshToken: 'rt-1', expiresAt: Date.now() - 1000 } };
    await adapter().updateCells(s, 'ss1', [{ range: 'Sales!M5', values: [['refunded']] }]);
    expect(requests.map((r) => r.path)).toEqual(['/token', '/v4/spreadsheets/ss1/values:batchUpdate']);
    expect(Object.fromEntries(new URLSearchParams(requests[0]!.body))).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'rt-1',
      client_id: 'client-1',
    });
    expect(requests[1]!.headers.authorization).toBe('Bearer at-2');
    expect(JSON.parse(requests[1]!.body)).toEqual({ valueInputOption: 'RAW', data: [{ range: 'Sales!M5', majorDimension: 'ROWS', values: [['refunded']] }] });
    expect(s.tokens.accessToken).toBe('at-2');
  });

  it('revokes the refresh token at the revoke endpoint', async () => {
    await adapter().revoke({ accessToken: 'at-1', refreshToken: 'rt-9' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/revoke');
    expect(`${requests[0]!.query.get('token') ?? new URLSearchParams(requests[0]!.body).get('token')}`).toBe('rt-9');
  });
});

describe('client secret encrypted with the deployment key (GOOGLE_CLIENT_SECRET_ENCRYPTED)', () => {
  const config = (values: Record<string, string>) =>
    configFrom({
      GOOGLE_OAUTH_AUTH_URL: `${base}/auth`,
      GOOGLE_OAUTH_TOKEN_URL: `${base}/token`,
      GOOGLE_OAUTH_REVOKE_URL: `${base}/revoke`,
      GOOGLE_SHEETS_ROOT_URL: `${base}/`,
      ...values,
    });

  it('decrypts the secret once, at first use, and sends it to the token endpoint; the consent link needs only the client id', async () => {
    const key = new LocalEncryption();
    const sealed = await key.encrypt('secret-sealed', { ...CLIENT_SECRET_CONTEXT });
    const decrypts: Record<string, string>[] = [];
    const port = googleSpreadsheetFactory(config({ GOOGLE_CLIENT_ID: 'client-2', GOOGLE_CLIENT_SECRET_ENCRYPTED: sealed }), (ciphertext, context) => {
      decrypts.push(context);
      return key.decrypt(ciphertext, context);
    });
    expect(port).toBeInstanceOf(SealedSecretSpreadsheets);
    const consent = new URL(port.consentUrl({ state: 's', redirectUri: 'https://api.example.com/sheets-sync/callback' }));
    expect(consent.searchParams.get('client_id')).toBe('client-2');
    expect(decrypts).toEqual([]);
    await port.exchangeCode({ code: 'code-2', redirectUri: 'https://api.example.com/sheets-sync/callback' });
    await port.revoke({ accessToken: 'at-1', refreshToken: 'rt-9' });
    expect(decrypts).toEqual([{ purpose: 'google-client-secret' }]);
    const tokenRequest = requests.find((r) => r.path === '/token')!;
    const form = new URLSearchParams(tokenRequest.body);
    expect(Object.fromEntries(form)).toMatchObject({ client_id: 'client-2', client_secret: 'secret-sealed', code: 'code-2' });
  });

  it('refuses a ciphertext made for another purpose, and tries again on the next call', async () => {
    const key = new LocalEncryption();
    const wrong = await key.encrypt('secret-x', { purpose: 'webhook-secret' });
    let calls = 0;
    const port = googleSpreadsheetFactory(config({ GOOGLE_CLIENT_ID: 'client-3', GOOGLE_CLIENT_SECRET_ENCRYPTED: wrong }), (ciphertext, context) => {
      calls++;
      return key.decrypt(ciphertext, context);
    });
    await expect(port.exchangeCode({ code: 'c', redirectUri: 'https://x.example/cb' })).rejects.toThrow();
    await expect(port.exchangeCode({ code: 'c', redirectUri: 'https://x.example/cb' })).rejects.toThrow();
    expect(calls).toBe(2);
    expect(requests.filter((r) => r.path === '/token')).toHaveLength(0);
  });

  it('answers 503 SHEETS_NOT_CONFIGURED without a client id or any secret', async () => {
    const port = googleSpreadsheetFactory(config({ GOOGLE_CLIENT_SECRET_ENCRYPTED: 'x' }), async () => 'never');
    await expect(port.exchangeCode({ code: 'c', redirectUri: 'https://x.example/cb' })).rejects.toMatchObject({ status: 503, code: 'SHEETS_NOT_CONFIGURED' });
  });
});
