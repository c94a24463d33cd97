import { join } from 'node:path';
import { googleSpreadsheetFactory } from '../adapters/spreadsheet-google/index';
import { LocalSpreadsheets } from '../adapters/spreadsheet-local/index';
import { defineCapability } from '../platform/capability';
import { SHEETS_CONTROL_ROUTES } from './control';
import { sheetsOperations } from './operations';
import { sheetsPrivacy } from './privacy';
import './port';
import { SHEETS_JOB_HANDLERS, sheetRowsConsumer } from './workers';

/**
 * Spreadsheet sync: sales and first purchases mirrored to a spreadsheet the service creates,
 * written in 2-minute batches from committed events. Google Sheets in AWS; CSV files and a
 * one-click consent page in the local runtime.
 */
export const sheets = defineCapability({
  name: 'sheets',
  build: {
    manifest: { url: import.meta.url, export: 'sheets' },
    operations: './operations#sheetsOperations',
    privacy: './privacy#sheetsPrivacy',
    jobs: './workers#SHEETS_JOB_HANDLERS',
    workers: { 'sheets-rows': './workers#sheetRowsConsumer' },
    uses: { api: ['spreadsheet'], jobs: ['spreadsheet'], ports: ['spreadsheet'], workers: { 'sheets-rows': ['spreadsheet'] } },
    jobNeeds: ['table', 'queue', 'scheduler', 'encryption'],
  },
  operations: sheetsOperations,
  privacy: sheetsPrivacy,
  needs: ['table', 'scheduler', 'encryption'],
  consumers: [sheetRowsConsumer],
  jobs: SHEETS_JOB_HANDLERS,
  controlRoutes: SHEETS_CONTROL_ROUTES,
  ports: {
    spreadsheet: {
      // The client secret comes encrypted with the deployment's key; read at first use.
      aws: (deps) => googleSpreadsheetFactory(deps.config, (ciphertext, context) => deps.ports.encryption.decrypt(ciphertext, context)),
      local: (_deps, host) => {
        // Dropped from the Lambda bundles (esbuild-options.ts: dropLabels), and with it the CSV files' parser.
        LOCAL_RUNTIME: return new LocalSpreadsheets({ baseUrl: host.baseUrl, dir: host.dataDir ? join(host.dataDir, 'sheets') : undefined });
        // biome-ignore lint/correctness/noUnreachable: reached in the Lambda bundles, where the labelled line above is dropped
        throw new Error('The local spreadsheet adapter is not in the Lambda bundles');
      },
    },
  },
  eventTypes: ['order.disputed'],
});
