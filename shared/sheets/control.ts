import * as z from '../platform/zod';
import type { ControlRoute, LocalRuntimeHandle } from '../platform/capability';
import { badRequest } from '../platform/errors';
import { parseOrThrow } from '../platform/http/validation';
import type { Cell } from './port';
import { listCreatedSheets } from './repository';
import { escapeHtml } from '../platform/html';

/** What the local spreadsheet adapter offers the control API beyond the port. */
export interface LocalSpreadsheetControls {
  grant(): string;
  failNext(count: number): void;
  read(spreadsheetId: string): Promise<{ id: string; title: string; tabs: Record<string, Cell[][]> } | undefined>;
}

function local(runtime: LocalRuntimeHandle): LocalSpreadsheetControls {
  const port = runtime.deps.ports.spreadsheet as unknown as Partial<LocalSpreadsheetControls>;
  if (typeof port.grant !== 'function' || typeof port.failNext !== 'function' || typeof port.read !== 'function')
    throw badRequest('The local runtime is not using the local spreadsheet provider');
  return port as LocalSpreadsheetControls;
}

const failBody = z.object({ count: z.number().check(z.int(), z.minimum(0), z.maximum(1000)) });

/** the local spreadsheet provider's consent page and what black-box tests drive. */
export const SHEETS_CONTROL_ROUTES: ControlRoute[] = [
  {
    method: 'GET',
    path: '/_local/sheets',
    async handle(runtime, { query }) {
      if (!query.accountId) throw badRequest('accountId is required');
      const provider = local(runtime);
      const spreadsheets = [];
      for (const mode of ['live', 'test'] as const) {
        for (const created of await listCreatedSheets(runtime.deps.store, { accountId: query.accountId, mode })) {
          const sheet = await provider.read(created.spreadsheetId);
          if (sheet)
            spreadsheets.push({ id: sheet.id, title: sheet.title, mode, tabs: { Sales: sheet.tabs.Sales ?? [], Customers: sheet.tabs.Customers ?? [] } });
        }
      }
      return { status: 200, body: { spreadsheets } };
    },
  },
  {
    method: 'POST',
    path: '/_local/sheets/fail-next',
    async handle(runtime, { body }) {
      const input = parseOrThrow(failBody, body, 'body')!;
      local(runtime).failNext(input.count);
      return { status: 200, body: { count: input.count } };
    },
  },
  {
    // The local consent page: one click grants, and the browser goes back to the callback.
    method: 'GET',
    path: '/_local/sheets/consent',
    async handle(runtime, { query }) {
      if (!query.state || !query.redirect_uri?.startsWith(runtime.baseUrl)) throw badRequest('state and a local redirect_uri are required');
      const grant = new URL('/_local/sheets/consent/grant', runtime.baseUrl);
      grant.searchParams.set('state', query.state);
      grant.searchParams.set('redirect_uri', query.redirect_uri);
      const deny = new URL(query.redirect_uri);
      deny.searchParams.set('state', query.state);
      deny.searchParams.set('error', 'access_denied');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Allow spreadsheet access</title></head><body><main><h1>Allow spreadsheet access?</h1><p>The store asks to create spreadsheets and edit only the ones it creates (${escapeHtml(String(query.scope ?? ''))}).</p><p><a id="allow" href="${escapeHtml(grant.toString())}">Allow</a> <a id="deny" href="${escapeHtml(deny.toString())}">Cancel</a></p></main></body></html>`;
      return { status: 200, body: html, headers: { 'content-type': 'text/html; charset=utf-8' } };
    },
  },
  {
    method: 'GET',
    path: '/_local/sheets/consent/grant',
    async handle(runtime, { query }) {
      if (!query.state || !query.redirect_uri?.startsWith(runtime.baseUrl)) throw badRequest('state and a local redirect_uri are required');
      const back = new URL(query.redirect_uri);
      back.searchParams.set('code', local(runtime).grant());
      back.searchParams.set('state', query.state);
      return { status: 302, body: '', headers: { location: back.toString(), 'content-type': 'text/plain' } };
    },
  },
];
