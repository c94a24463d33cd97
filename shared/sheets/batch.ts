import { getAccount } from '../platform/accounts';
import type { Deps } from '../platform/context';
import { pastSalesPage } from '../sales/lookups';
import type { SaleRecord } from '../sales/records';
import type { Scope } from '../store/keys';
import type { TransactOp } from '../store/store';
import { planAtLeast } from '../platform/plans';
import { exhausted, retryDelayMs } from './backoff';
import { BACKFILL_JOB, backfillTimer } from './jobs-names';
import {
  CUSTOMER_NAME_COLUMN,
  CUSTOMERS_TAB,
  EMAIL_COLUMN,
  KEY_COLUMN,
  NAME_COLUMN,
  SALES_TAB,
  STATUS_COLUMN,
  STATUS_INDEX,
  fullName,
  rowStatus,
  saleKind,
  salesRow,
} from './layout';
import { SpreadsheetError, type Cell, type ProviderSession } from './port';
import type { ConnectionRecord, RowTab } from './records';
import {
  connectionCounts,
  deleteFailedRow,
  deleteQueuedRow,
  deleteErasure,
  deleteStatus,
  getConnection,
  putFailedRow,
  putQueuedRow,
  queueRow,
  queuedErasures,
  queuedRows,
  queuedStatuses,
  rowSk,
  updateConnection,
  writtenAmong,
  writtenPut,
} from './repository';
import { REQUIRED_PLAN, armBatch, keepRefreshedTokens, openSession } from './service';

/** Rows per tab in one batch: one append each, well inside the provider's request size. */
export const BATCH_ROWS = 1000;
// A transaction holds 100 operations: two per row plus the connection's counters.
const ROWS_PER_TRANSACTION = 49;
const BACKFILL_PAGE = 100;

const chunks = <T>(items: T[], size: number) => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));

/** Drops queued rows of a tab that was turned off: turning a tab off stops new rows. */
async function dropTab(deps: Deps, scope: Scope, tab: RowTab): Promise<void> {
  for (
    let rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION);
    rows.length;
    rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION)
  ) {
    await deps.store.transact([...rows.map((row) => deleteQueuedRow(scope, row.sk)), connectionCounts(scope, { pendingCount: -rows.length })]);
  }
}

/**
 * One run of the 2-minute batch for one connection: one append per tab, then the status cells of
 * refunds and disputes in one update. Each sale is written once per spreadsheet: rows already
 * recorded as written are skipped, and after a crash or an ambiguous failure the key column is
 * read first. A refused batch waits 1, 2, 4… minutes; after 8 its rows become Failed. The timer is
 * re-armed only while rows are pending.
 */
export async function runBatch(deps: Deps, scope: Scope): Promise<void> {
  const connection = await getConnection(deps.store, scope);
  if (!connection || connection.status !== 'connected' || !connection.tokens || !connection.spreadsheetId || connection.pausedReason) return;
  const account = await getAccount(deps.store, scope.accountId);
  // Below Pro the connection is kept and syncing pauses; the next sale or a plan change re-arms.
  if (!account || !planAtLeast(account.plan, REQUIRED_PLAN)) return;
  const nowMs = deps.clock.nowMs();
  if (connection.nextAttemptAt && Date.parse(connection.nextAttemptAt) > nowMs) return armBatch(deps, scope, connection);

  if (!connection.tabs.sales) await dropTab(deps, scope, 'S');
  if (!connection.tabs.customers) await dropTab(deps, scope, 'C');
  const sales = connection.tabs.sales ? await queuedRows(deps.store, scope, 'S', BATCH_ROWS) : [];
  const customers = connection.tabs.customers ? await queuedRows(deps.store, scope, 'C', BATCH_ROWS) : [];
  const statuses = connection.tabs.sales ? await queuedStatuses(deps.store, scope, BATCH_ROWS) : [];
  const erasures = await queuedErasures(deps.store, scope, ERASURES_PER_BATCH);
  if (!sales.length && !customers.length && !statuses.length && !erasures.length) return;

  const sheetId = connection.spreadsheetId;
  const port = deps.ports.spreadsheet;
  let session: ProviderSession;
  try {
    session = await openSession(deps, scope, connection);
  } catch {
    await updateConnection(deps.store, scope, { set: { pausedReason: 'access_removed', lastError: 'Stored access could not be read; reconnect' } });
    return;
  }
  const before = session.tokens;

  // Status changes of sales still in this batch are applied to their rows before they are sent.
  const salesBySale = new Map(sales.map((row) => [row.key, row]));
  for (const update of statuses) {
    const row = salesBySale.get(update.saleId);
    if (row) row.cells = row.cells.map((cell, i) => (i === STATUS_INDEX ? update.status : cell));
  }

  try {
    const written = await writtenAmong(
      deps.store,
      scope,
      sheetId,
      [...sales, ...customers].map((row) => row.sk),
    );
    let toSend = [...sales, ...customers].filter((row) => !written.has(row.sk));
    if (connection.uncertain) {
      const present = new Set<string>();
      for (const [tab, title] of [
        ['S', SALES_TAB],
        ['C', CUSTOMERS_TAB],
      ] as const) {
        if (!toSend.some((row) => row.tab === tab)) continue;
        for (const value of await port.readColumn(session, sheetId, title, KEY_COLUMN)) present.add(rowSk(tab, tab === 'C' ? value.toLowerCase() : value));
      }
      toSend = toSend.filter((row) => !present.has(row.sk));
    }
    await updateConnection(deps.store, scope, { set: { uncertain: true } });
    const salesOut = toSend.filter((row) => row.tab === 'S');
    const customersOut = toSend.filter((row) => row.tab === 'C');
    if (salesOut.length)
      await port.append(
        session,
        sheetId,
        SALES_TAB,
        salesOut.map((row) => row.cells),
      );
    if (customersOut.length)
      await port.append(
        session,
        sheetId,
        CUSTOMERS_TAB,
        customersOut.map((row) => row.cells),
      );
    const laterStatuses = statuses.filter((update) => !salesOut.some((row) => row.key === update.saleId));
    if (laterStatuses.length) {
      const column = await port.readColumn(session, sheetId, SALES_TAB, KEY_COLUMN);
      const updates = laterStatuses.flatMap((update) => {
        const index = column.indexOf(update.saleId);
        return index > 0 ? [{ range: `${SALES_TAB}!${STATUS_COLUMN}${index + 1}`, values: [[update.status]] }] : [];
      });
      if (updates.length) await port.updateCells(session, sheetId, updates);
    }
    if (erasures.length) {
      const updates = await erasureUpdates(port, session, sheetId, new Set(erasures.map((e) => e.email)));
      if (updates.length) await port.updateCells(session, sheetId, updates);
    }

    const at = deps.clock.now().toISOString();
    const sent = new Set(toSend.map((row) => row.sk));
    for (const group of chunks([...sales, ...customers], ROWS_PER_TRANSACTION)) {
      const ops: TransactOp[] = group.flatMap((row) => [deleteQueuedRow(scope, row.sk), ...(sent.has(row.sk) ? [writtenPut(scope, sheetId, row.sk, at)] : [])]);
      const synced = group.filter((row) => sent.has(row.sk)).length;
      await deps.store.transact([...ops, connectionCounts(scope, { pendingCount: -group.length, syncedCount: synced })]);
    }
    for (const group of chunks(statuses, 99)) await deps.store.transact(group.map((update) => deleteStatus(scope, update.saleId)));
    if (erasures.length) await deps.store.transact(erasures.map((erasure) => deleteErasure(scope, erasure.email)));
    const after = await updateConnection(deps.store, scope, { set: { uncertain: false, attempts: 0, nextAttemptAt: null, lastError: null, lastSyncedAt: at } });
    await keepRefreshedTokens(deps, scope, before, session);
    if (
      after.pendingCount > 0 ||
      sales.length === BATCH_ROWS ||
      customers.length === BATCH_ROWS ||
      statuses.length === BATCH_ROWS ||
      erasures.length === ERASURES_PER_BATCH
    )
      await armBatch(deps, scope, after);
  } catch (error) {
    await keepRefreshedTokens(deps, scope, before, session).catch(() => undefined);
    await refused(deps, scope, connection, error);
  }
}

/** Erased buyers per batch: each reads the two key columns once for all of them. */
const ERASURES_PER_BATCH = 25;

/**
 * The cells that blank erased buyers' rows already written: email and name on Sales (found by the
 * email column), email and name on Customers (found by its key column). One cell a range, as the
 * status updates.
 */
async function erasureUpdates(port: Deps['ports']['spreadsheet'], session: ProviderSession, sheetId: string, emails: Set<string>) {
  const updates: { range: string; values: Cell[][] }[] = [];
  const holding = (column: string[]) => column.flatMap((value, i) => (i > 0 && emails.has(String(value).trim().toLowerCase()) ? [i + 1] : []));
  for (const row of holding(await port.readColumn(session, sheetId, SALES_TAB, EMAIL_COLUMN))) {
    updates.push({ range: `${SALES_TAB}!${EMAIL_COLUMN}${row}`, values: [['']] }, { range: `${SALES_TAB}!${NAME_COLUMN}${row}`, values: [['']] });
  }
  for (const row of holding(await port.readColumn(session, sheetId, CUSTOMERS_TAB, KEY_COLUMN))) {
    updates.push(
      { range: `${CUSTOMERS_TAB}!${KEY_COLUMN}${row}`, values: [['']] },
      { range: `${CUSTOMERS_TAB}!${CUSTOMER_NAME_COLUMN}${row}`, values: [['']] },
    );
  }
  return updates;
}

async function refused(deps: Deps, scope: Scope, connection: ConnectionRecord, error: unknown): Promise<void> {
  const code = error instanceof SpreadsheetError ? error.code : 'unavailable';
  const message = error instanceof Error ? error.message.slice(0, 300) : 'Provider error';
  if (code === 'unauthorized') {
    await updateConnection(deps.store, scope, { set: { pausedReason: 'access_removed', lastError: message } });
    return;
  }
  if (code === 'not_found') {
    await updateConnection(deps.store, scope, { set: { pausedReason: 'spreadsheet_deleted', lastError: message } });
    return;
  }
  const attempts = connection.attempts + 1;
  if (exhausted(attempts)) {
    await failQueuedRows(deps, scope);
    await updateConnection(deps.store, scope, { set: { attempts: 0, nextAttemptAt: null, lastError: message } });
    return;
  }
  const nextAttemptAt = new Date(deps.clock.nowMs() + retryDelayMs(attempts)).toISOString();
  const after = await updateConnection(deps.store, scope, { set: { attempts, nextAttemptAt, lastError: message } });
  await armBatch(deps, scope, after);
}

/** After the last refused attempt the queued rows show as Failed until Retry. */
async function failQueuedRows(deps: Deps, scope: Scope): Promise<void> {
  for (const tab of ['S', 'C'] as const) {
    for (
      let rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION);
      rows.length;
      rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION)
    ) {
      await deps.store.transact([
        ...rows.flatMap((row) => [deleteQueuedRow(scope, row.sk), putFailedRow(scope, row)]),
        connectionCounts(scope, { pendingCount: -rows.length, failedCount: rows.length }),
      ]);
    }
  }
}

/** Retry: Failed rows are queued again, with a fresh run of attempts. */
export async function runRequeue(deps: Deps, scope: Scope): Promise<void> {
  const connection = await getConnection(deps.store, scope);
  if (!connection) return;
  for (const tab of ['S', 'C'] as const) {
    for (
      let rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION, 'failed');
      rows.length;
      rows = await queuedRows(deps.store, scope, tab, ROWS_PER_TRANSACTION, 'failed')
    ) {
      await deps.store.transact([
        ...rows.flatMap((row) => [deleteFailedRow(scope, row.sk), putQueuedRow(scope, row)]),
        connectionCounts(scope, { pendingCount: rows.length, failedCount: -rows.length }),
      ]);
    }
  }
  const after = await updateConnection(deps.store, scope, { set: { attempts: 0, nextAttemptAt: null } });
  if (after.status === 'connected' && after.pendingCount > 0) await armBatch(deps, scope, after);
}

const saleFactsRow = (sale: SaleRecord) =>
  salesRow({
    orderId: sale._id,
    createdAt: sale.createdAt,
    product: sale.productName,
    kind: saleKind(sale.type, sale.billingReason),
    email: sale.buyerEmail.toLowerCase(),
    name: fullName(sale.firstName, sale.lastName),
    country: sale.country ?? '',
    amountCents: sale.amountCents,
    taxCents: 0,
    feeCents: 0,
    currency: sale.currency,
    status: rowStatus(sale.status),
  });

/**
 * Backfill, one page of past sales per run (oldest first), re-armed until the last page. Sales
 * already in the spreadsheet or already queued are skipped; the rest are appended at the bottom
 * by the next batch. Test mode never syncs, so a test-mode backfill adds nothing.
 */
export async function runBackfill(deps: Deps, scope: Scope, afterId: string): Promise<void> {
  const connection = await getConnection(deps.store, scope);
  if (!connection || connection.status !== 'connected' || !connection.spreadsheetId || scope.mode !== 'live' || !connection.tabs.sales) return;
  const page = await pastSalesPage(deps, scope, afterId, BACKFILL_PAGE);
  const written = await writtenAmong(
    deps.store,
    scope,
    connection.spreadsheetId,
    page.map((sale) => rowSk('S', sale._id)),
  );
  const queuedAt = deps.clock.now().toISOString();
  let queued = 0;
  for (const sale of page) {
    if (sale.testMode || written.has(rowSk('S', sale._id))) continue;
    if (await queueRow(deps.store, scope, { sk: rowSk('S', sale._id), tab: 'S', key: sale._id, cells: saleFactsRow(sale), queuedAt })) queued++;
  }
  if (page.length === BACKFILL_PAGE) {
    await deps.ports.scheduler.schedule(backfillTimer(scope), deps.clock.now(), {
      type: BACKFILL_JOB,
      scope,
      payload: { afterId: page[page.length - 1]!._id },
    });
  }
  if (queued > 0) await armBatch(deps, scope, connection);
}
