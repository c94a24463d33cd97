import type { PrivacyPart } from '../platform/privacy';
import { EMAIL_INDEX, NAME_INDEX } from './layout';
import {
  connectionCounts,
  deleteFailedRow,
  deleteQueuedRow,
  deleteWritten,
  getConnection,
  listCreatedSheets,
  putFailedRow,
  putQueuedRow,
  queueErasure,
  rowSk,
  rowsHolding,
} from './repository';
import { armBatch } from './timer';

/**
 * The buyer's rows in the synced spreadsheet. Rows not yet written: a Customers row (keyed by the
 * address) is dropped, a Sales row loses its email and name cells. Rows already written: the next
 * batch blanks the email and name cells of every row holding the address (SheetErasure, batch.ts);
 * the order id, amounts and status stay, as on the books. A disconnected or paused connection gets
 * it when it syncs again. Spreadsheets the seller switched away from are not rewritten.
 */
const sheetsPart: PrivacyPart = {
  name: 'sheets',
  async erase(deps, scope, subject) {
    const connection = await getConnection(deps.store, scope);
    if (!connection) return;
    for (const list of ['queue', 'failed'] as const) {
      const counter = list === 'queue' ? 'pendingCount' : 'failedCount';
      for await (const rows of rowsHolding(deps.store, scope, list, subject.email)) {
        for (const row of rows) {
          if (row.tab === 'C') {
            await deps.store.transact([
              list === 'queue' ? deleteQueuedRow(scope, row.sk) : deleteFailedRow(scope, row.sk),
              connectionCounts(scope, { [counter]: -1 }),
            ]);
            continue;
          }
          const cells = row.cells.map((cell, i) => (i === EMAIL_INDEX || i === NAME_INDEX ? '' : cell));
          await deps.store.transact([list === 'queue' ? putQueuedRow(scope, { ...row, cells }) : putFailedRow(scope, { ...row, cells })]);
        }
      }
    }
    const sheets = await listCreatedSheets(deps.store, scope);
    if (sheets.length) await deps.store.transact(sheets.map((sheet) => deleteWritten(scope, sheet.spreadsheetId, rowSk('C', subject.email))));
    if (!connection.spreadsheetId) return;
    await queueErasure(deps.store, scope, { email: subject.email, queuedAt: deps.clock.now().toISOString() });
    if (connection.status === 'connected') await armBatch(deps, scope, connection);
  },
};

export const sheetsPrivacy: PrivacyPart[] = [sheetsPart];
