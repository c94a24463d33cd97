import { defineOperation, rawReply } from '../platform/operation';
import { consentResultPage } from './page';
import { backfillBody, callbackQuery, disconnectSchema, settingsBody, spreadsheetBody, syncViewSchema } from './schemas';
import * as z from '../platform/zod';
import {
  chooseSpreadsheet,
  completeConsent,
  disconnect,
  readSync,
  REQUIRED_PLAN,
  retryFailed,
  startBackfill,
  startConnect,
  syncNow,
  updateSettings,
} from './service';

const tags = ['Spreadsheet sync'];
// Writes need Pro; reading, turning a tab off and disconnecting stay open on every plan.
const enablesSomething = (body: { tabs?: { sales?: boolean; customers?: boolean } } | undefined) =>
  Object.values(body?.tabs ?? {}).some((value) => value === true) ? REQUIRED_PLAN : undefined;

export const sheetsOperations = [
  defineOperation({
    operationId: 'getSheetsSync',
    tool: 'get_sheets_sync',
    summary: 'Spreadsheet sync: connection, settings, and counts of synced, pending and failed rows',
    tags,
    method: 'GET',
    path: '/sheets-sync',
    auth: 'key',
    output: syncViewSchema,
    handler: async (ctx) => readSync(ctx),
  }),
  defineOperation({
    operationId: 'connectSheetsSync',
    tool: 'connect_sheets_sync',
    summary: 'Returns a consent link (file-scoped permission only) for the creator to open in a browser',
    tags,
    method: 'POST',
    path: '/sheets-sync/connect',
    auth: 'key',
    plan: REQUIRED_PLAN,
    output: z.object({ url: z.string() }),
    handler: async (ctx) => startConnect(ctx),
  }),
  defineOperation({
    operationId: 'sheetsSyncCallback',
    summary: 'Where the provider sends the creator back after consent; stores the grant encrypted and never shows it',
    tags,
    method: 'GET',
    path: '/sheets-sync/callback',
    auth: 'public',
    query: callbackQuery,
    handler: async (ctx, { query }) => {
      const result = await completeConsent(ctx, query, ctx.request.baseUrl);
      return rawReply(result.ok ? 200 : 400, consentResultPage(result.ok, result.message), 'text/html; charset=utf-8', { 'cache-control': 'no-store' });
    },
  }),
  defineOperation({
    operationId: 'setSheetsSpreadsheet',
    tool: 'set_sheets_spreadsheet',
    summary: 'Uses a spreadsheet created earlier by this service ({ spreadsheetId }) or creates a new one ({ title })',
    tags,
    method: 'PUT',
    path: '/sheets-sync/spreadsheet',
    auth: 'key',
    plan: REQUIRED_PLAN,
    body: spreadsheetBody,
    output: syncViewSchema,
    handler: async (ctx, { body }) => chooseSpreadsheet(ctx, body),
  }),
  defineOperation({
    operationId: 'updateSheetsSync',
    tool: 'update_sheets_sync',
    summary: 'Changes settings: { tabs: { sales?, customers? } }; a tab turned off gets no new rows, written rows stay',
    tags,
    method: 'PATCH',
    path: '/sheets-sync',
    auth: 'key',
    planFor: ({ body }) => enablesSomething(body),
    body: settingsBody,
    output: syncViewSchema,
    handler: async (ctx, { body }) => updateSettings(ctx, body),
  }),
  defineOperation({
    operationId: 'backfillSheetsSync',
    tool: 'backfill_sheets_sync',
    summary: 'Adds past sales of the last { days: 0 | 7 | 30 | 90 | 365 } at the bottom, skipping duplicates',
    tags,
    method: 'POST',
    path: '/sheets-sync/backfill',
    auth: 'key',
    plan: REQUIRED_PLAN,
    body: backfillBody,
    output: z.object({ days: z.number().check(z.int()), since: z.nullable(z.string()) }),
    handler: async (ctx, { body }) => startBackfill(ctx, body.days),
  }),
  defineOperation({
    operationId: 'syncSheetsNow',
    tool: 'sync_sheets_now',
    summary: 'Writes pending rows now; allowed once a minute (429 otherwise)',
    tags,
    method: 'POST',
    path: '/sheets-sync/sync',
    auth: 'key',
    plan: REQUIRED_PLAN,
    output: z.object({ queued: z.number().check(z.int()) }),
    handler: async (ctx) => syncNow(ctx),
  }),
  defineOperation({
    operationId: 'retrySheetsSync',
    tool: 'retry_sheets_sync',
    summary: 'Queues Failed rows again',
    tags,
    method: 'POST',
    path: '/sheets-sync/retry',
    auth: 'key',
    plan: REQUIRED_PLAN,
    output: z.object({ requeued: z.number().check(z.int()) }),
    handler: async (ctx) => retryFailed(ctx),
  }),
  defineOperation({
    operationId: 'disconnectSheetsSync',
    tool: 'disconnect_sheets_sync',
    summary: 'Stops syncing, revokes the grant and deletes the stored tokens; the spreadsheet stays',
    tags,
    method: 'DELETE',
    path: '/sheets-sync',
    auth: 'key',
    output: disconnectSchema,
    handler: async (ctx) => disconnect(ctx),
  }),
];
