import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { ConditionFailed, toRecord, type Store, type TransactOp } from '../store/store';
import type { ConnectionRecord, CreatedSheetRecord, PendingRow, RowTab, SheetErasure, StatusUpdate } from './records';

/**
 * Every query of the sheets capability. Layout (scope = account + mode):
 *   connection           <scope>#SHEETS / CONNECTION
 *   pending rows         <scope>#SHEETS#queue#ROW / S#<orderId> | C#<email>   (ascending = sale order)
 *   failed rows          <scope>#SHEETS#failed#ROW / same keys
 *   status changes       <scope>#SHEETS#queue#STATUS / <saleId>
 *   written rows         <scope>#SHEET#<spreadsheetId>#WRITTEN / S#<orderId> | C#<email>
 *   created spreadsheets <scope>#U#SHEETS_CREATED / <spreadsheetId>
 *   consent state        CAP#sheets-consent#<state> (TTL 15 minutes)
 */
const SHEETS = 'SHEETS';
const CONNECTION = 'CONNECTION';
const ROW = 'ROW';
const STATUS = 'STATUS';
const CREATED = 'SHEETS_CREATED';
const CONSENT = 'sheets-consent';

const connectionKey = (scope: Scope) => keys.entity(scope, SHEETS, CONNECTION);
const rowKey = (scope: Scope, list: 'queue' | 'failed', sk: string) => keys.child(scope, SHEETS, list, ROW, sk);
const writtenKey = (scope: Scope, spreadsheetId: string, sk: string) => keys.child(scope, 'SHEET', spreadsheetId, 'WRITTEN', sk);

export const rowSk = (tab: RowTab, key: string) => `${tab}#${key}`;

// ---- connection ----

export async function getConnection(store: Store, scope: Scope): Promise<ConnectionRecord | undefined> {
  return toRecord<ConnectionRecord>(await store.get(connectionKey(scope), { consistent: true }));
}

export async function putConnection(store: Store, scope: Scope, connection: ConnectionRecord): Promise<void> {
  await store.put(toItem(connectionKey(scope), 'SheetsConnection', connection));
}

export async function updateConnection(
  store: Store,
  scope: Scope,
  change: {
    set?: Partial<ConnectionRecord>;
    remove?: (keyof ConnectionRecord)[];
    add?: Partial<Record<'syncedCount' | 'pendingCount' | 'failedCount', number>>;
  },
): Promise<ConnectionRecord> {
  const item = await store.update(
    connectionKey(scope),
    { set: change.set as Record<string, unknown>, remove: change.remove as string[], add: change.add as Record<string, number> },
    { mustExist: true },
  );
  return toRecord<ConnectionRecord>(item)!;
}

export const connectionCounts = (
  scope: Scope,
  add: Partial<Record<'syncedCount' | 'pendingCount' | 'failedCount', number>>,
  set: Record<string, unknown> = {},
): TransactOp => ({
  update: connectionKey(scope),
  set,
  add: add as Record<string, number>,
  condition: 'attribute_exists(PK)',
});

// ---- pending and failed rows ----

/** Queues a row unless one with its key is already queued; false when it was. */
export async function queueRow(store: Store, scope: Scope, row: PendingRow): Promise<boolean> {
  try {
    await store.transact([
      { put: toItem(rowKey(scope, 'queue', row.sk), 'SheetRow', row), condition: 'attribute_not_exists(PK)' },
      { check: failedProbe(scope, row.sk), condition: 'attribute_not_exists(PK)' },
      connectionCounts(scope, { pendingCount: 1 }),
    ]);
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}
const failedProbe = (scope: Scope, sk: string) => rowKey(scope, 'failed', sk);

export async function getQueuedRow(store: Store, scope: Scope, sk: string): Promise<PendingRow | undefined> {
  return toRecord<PendingRow>(await store.get(rowKey(scope, 'queue', sk), { consistent: true }));
}

/** A queued row's cells change (a refund before the row was written). */
export async function rewriteQueuedRow(store: Store, scope: Scope, row: PendingRow): Promise<boolean> {
  try {
    await store.put(toItem(rowKey(scope, 'queue', row.sk), 'SheetRow', row), { condition: 'attribute_exists(PK)' });
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/** The oldest queued rows of one tab, up to `limit` (one batch). */
export async function queuedRows(store: Store, scope: Scope, tab: RowTab, limit: number, list: 'queue' | 'failed' = 'queue'): Promise<PendingRow[]> {
  const page = await store.query({ pk: keys.children(scope, SHEETS, list, ROW), beginsWith: `${tab}#`, ascending: true, limit });
  return page.items.map((item) => toRecord<PendingRow>(item)!);
}

export const deleteQueuedRow = (scope: Scope, sk: string): TransactOp => ({ delete: rowKey(scope, 'queue', sk) });
export const putFailedRow = (scope: Scope, row: PendingRow): TransactOp => ({ put: toItem(rowKey(scope, 'failed', row.sk), 'SheetRow', row) });
export const deleteFailedRow = (scope: Scope, sk: string): TransactOp => ({ delete: rowKey(scope, 'failed', sk) });
export const putQueuedRow = (scope: Scope, row: PendingRow): TransactOp => ({ put: toItem(rowKey(scope, 'queue', row.sk), 'SheetRow', row) });

// ---- status changes of written sales ----

export async function queueStatus(store: Store, scope: Scope, update: StatusUpdate): Promise<void> {
  await store.put(toItem(keys.child(scope, SHEETS, 'queue', STATUS, update.saleId), 'SheetStatusUpdate', update));
}

export async function queuedStatuses(store: Store, scope: Scope, limit: number): Promise<StatusUpdate[]> {
  const page = await store.query({ pk: keys.children(scope, SHEETS, 'queue', STATUS), ascending: true, limit });
  return page.items.map((item) => toRecord<StatusUpdate>(item)!);
}

export const deleteStatus = (scope: Scope, saleId: string): TransactOp => ({ delete: keys.child(scope, SHEETS, 'queue', STATUS, saleId) });

// ---- rows written to a spreadsheet ----

export const writtenPut = (scope: Scope, spreadsheetId: string, sk: string, at: string): TransactOp => ({
  put: toItem(writtenKey(scope, spreadsheetId, sk), 'SheetWrittenRow', { sk, writtenAt: at }),
});

/** Which of these row keys are already in the spreadsheet. */
export async function writtenAmong(store: Store, scope: Scope, spreadsheetId: string, sks: string[]): Promise<Set<string>> {
  if (!sks.length) return new Set();
  const items = await store.batchGet<{ sk: string }>(sks.map((sk) => writtenKey(scope, spreadsheetId, sk)));
  return new Set(items.map((item) => item.sk));
}

// ---- spreadsheets the service created ----

export async function recordCreatedSheet(store: Store, scope: Scope, sheet: CreatedSheetRecord): Promise<void> {
  await store.put(toItem(keys.unique(scope, CREATED, sheet.spreadsheetId), 'SheetsCreatedSpreadsheet', sheet));
}

export async function getCreatedSheet(store: Store, scope: Scope, spreadsheetId: string): Promise<CreatedSheetRecord | undefined> {
  return toRecord<CreatedSheetRecord>(await store.get(keys.unique(scope, CREATED, spreadsheetId)));
}

/** One per connect or explicit create: small per account. */
export async function listCreatedSheets(store: Store, scope: Scope): Promise<CreatedSheetRecord[]> {
  return (await store.queryAll({ pk: keys.unique(scope, CREATED, '').PK, ascending: true })).map((item) => toRecord<CreatedSheetRecord>(item)!);
}

// ---- consent state (single use) ----

export async function putConsentState(store: Store, state: string, scope: Scope, expiresAt: number): Promise<void> {
  await store.put(
    toItem(
      keys.capability(CONSENT, state),
      'SheetsConsentState',
      { accountId: scope.accountId, mode: scope.mode, expiresAtMs: expiresAt * 1000 },
      { expiresAt },
    ),
    { ifNotExists: true },
  );
}

/** Takes the state once: a replayed or unknown state answers undefined. */
export async function takeConsentState(store: Store, state: string, nowMs: number): Promise<Scope | undefined> {
  const item = await store.delete(keys.capability(CONSENT, state)).catch(() => undefined);
  if (!item || (item.expiresAtMs as number) < nowMs) return undefined;
  return { accountId: item.accountId as string, mode: item.mode as Scope['mode'] };
}

// ---- erased buyers (shared/sheets/privacy.ts), applied to written rows by the next batch ----

const ERASE = 'ERASE';

export const queueErasure = (store: Store, scope: Scope, erasure: SheetErasure) =>
  store.put(toItem(keys.child(scope, SHEETS, 'queue', ERASE, erasure.email), 'SheetErasure', erasure));

export async function queuedErasures(store: Store, scope: Scope, limit: number): Promise<SheetErasure[]> {
  const page = await store.query({ pk: keys.children(scope, SHEETS, 'queue', ERASE), ascending: true, limit });
  return page.items.map((item) => toRecord<SheetErasure>(item)!);
}

export const deleteErasure = (scope: Scope, email: string): TransactOp => ({ delete: keys.child(scope, SHEETS, 'queue', ERASE, email) });

/** Rows of a list (queued or Failed) with `email` in one of their cells, page by page (the filter runs in DynamoDB). */
export async function* rowsHolding(store: Store, scope: Scope, list: 'queue' | 'failed', email: string): AsyncIterable<PendingRow[]> {
  let cursor: string | undefined;
  do {
    const page = await store.query({
      pk: keys.children(scope, SHEETS, list, ROW),
      ascending: true,
      cursor,
      filter: { expression: 'contains(#cells, :email)', names: { '#cells': 'cells' }, values: { ':email': email } },
    });
    if (page.items.length) yield page.items.map((item) => toRecord<PendingRow>(item)!);
    cursor = page.cursor;
  } while (cursor);
}

/** The written-row marker of a Customers row is keyed by the address: it goes with the buyer. */
export const deleteWritten = (scope: Scope, spreadsheetId: string, sk: string): TransactOp => ({ delete: writtenKey(scope, spreadsheetId, sk) });
