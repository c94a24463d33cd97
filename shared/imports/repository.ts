import { toItem } from '../store/items';
import { keys, type Scope } from '../store/keys';
import { toRecord, type Store, type TransactOp } from '../store/store';
import { KINDS, type Kind } from './platforms';
import type { ImportedCustomer, ImportedOrder, ImportRecord, ProductFile, RowRecord, RowState } from './records';

/**
 * Every query of the imports capability. Layout (scope = account + mode):
 *   import job         <scope>#IMPORT / <id>                       (newest first)
 *   rows of a job      <scope>#IMPORT#<id>#ROW / <kind order>#<row number, 7 digits>
 *   imported orders    <scope>#U#IMPORTED_ORDER / id:<platform order id> | hash:<row hash>
 *   imported customers <scope>#U#IMPORTED_CUSTOMER / <email>
 *   product source ids <scope>#U#IMPORTED_PRODUCT / <source>:<platform product id> -> product id
 *   (a product's files belong to shared/product-files)
 */
const IMPORT = 'IMPORT';
const ROW = 'ROW';
const importKey = (scope: Scope, id: string) => keys.entity(scope, IMPORT, id);
const rowKey = (scope: Scope, id: string, sk: string) => keys.child(scope, IMPORT, id, ROW, sk);

export const kindPrefix = (kind: Kind) => `${KINDS.indexOf(kind)}`;
export const rowSk = (kind: Kind, n: number) => `${kindPrefix(kind)}#${String(n).padStart(7, '0')}`;

export async function putImport(store: Store, scope: Scope, record: ImportRecord): Promise<void> {
  await store.put(toItem(importKey(scope, record._id), 'Import', record), { ifNotExists: true });
}

export async function getImport(store: Store, scope: Scope, id: string): Promise<ImportRecord | undefined> {
  return toRecord<ImportRecord>(await store.get(importKey(scope, id), { consistent: true }));
}

/** Changes a job, guarded by a condition on its current state. */
export async function updateImport(
  store: Store,
  scope: Scope,
  id: string,
  change: { set?: Record<string, unknown>; remove?: string[]; add?: Record<string, number> },
  condition?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> },
): Promise<ImportRecord> {
  const item = await store.update(importKey(scope, id), change, {
    mustExist: true,
    condition: condition?.expression,
    names: condition?.names,
    values: condition?.values,
  });
  return toRecord<ImportRecord>(item)!;
}

export async function listImports(store: Store, scope: Scope, page: { limit: number; cursor?: string }) {
  const result = await store.query({ pk: keys.collection(scope, IMPORT), limit: page.limit, cursor: page.cursor });
  return { items: result.items.map((item) => toRecord<ImportRecord>(item)!), cursor: result.cursor };
}

// ---- rows ----

const rowItem = (scope: Scope, id: string, row: RowRecord) => toItem(rowKey(scope, id, row.sk), 'ImportRow', row);

/**
 * Writes the rows of a file being added, by BatchWriteItem (25 a call, several in flight): plain
 * puts need no transaction, and the file counts only once its entry is on the job (written after).
 */
export async function putRows(store: Store, scope: Scope, id: string, rows: RowRecord[]): Promise<void> {
  await store.batchPut(rows.map((row) => rowItem(scope, id, row)));
}

export async function rowPage(store: Store, scope: Scope, id: string, options: { kind?: Kind; after?: string; limit: number; cursor?: string }) {
  const page = await store.query({
    pk: keys.children(scope, IMPORT, id, ROW),
    beginsWith: options.kind ? `${kindPrefix(options.kind)}#` : undefined,
    after: options.after,
    ascending: true,
    limit: options.limit,
    cursor: options.cursor,
  });
  return { rows: page.items.map((item) => toRecord<RowRecord>(item)!), cursor: page.cursor };
}

/** Every row of a kind, page by page (dry run, report, errors.csv, removing a file). */
export async function* eachRow(store: Store, scope: Scope, id: string, kind?: Kind): AsyncGenerator<RowRecord[]> {
  let cursor: string | undefined;
  do {
    const page = await rowPage(store, scope, id, { kind, limit: 500, cursor });
    if (page.rows.length) yield page.rows;
    cursor = page.cursor;
  } while (cursor);
}

/**
 * Deletes up to `limit` rows of a kind numbered above `keep` (0: every row), by BatchWriteItem;
 * answers whether more are left. Rows past a file's `rowCount` are never read as rows of the file,
 * so deleting them needs no atomicity.
 */
export async function deleteRowsAbove(store: Store, scope: Scope, id: string, kind: Kind, keep: number, limit = 5000): Promise<boolean> {
  const page = await store.query({
    pk: keys.children(scope, IMPORT, id, ROW),
    between: [rowSk(kind, keep + 1), rowSk(kind, 9_999_999)],
    ascending: true,
    limit,
  });
  await store.batchWrite(page.items.map((item) => ({ DeleteRequest: { Key: { PK: item.PK, SK: item.SK } } })));
  return !!page.cursor;
}

/**
 * The per-row marker, for the same transaction as what the row creates: the condition makes a row
 * that is already done refuse the whole transaction, so a retried or resumed batch never creates
 * anything twice. Progress counters move with the cursor (see service.runBatch), not here, so rows
 * of one batch can run side by side without contending on the job item.
 */
export function rowDone(
  scope: Scope,
  id: string,
  row: RowRecord,
  state: Exclude<RowState, 'pending'>,
  extra: { reason?: string | null; ref?: string | null; file?: ProductFile } = {},
): TransactOp[] {
  return [
    {
      update: rowKey(scope, id, row.sk),
      set: { state, reason: extra.reason ?? null, ref: extra.ref ?? null, ...(extra.file ? { file: extra.file } : {}) },
      condition: '#state = :pending',
      names: { '#state': 'state' },
      values: { ':pending': 'pending' },
    },
  ];
}

export async function getRow(store: Store, scope: Scope, id: string, sk: string): Promise<RowRecord | undefined> {
  return toRecord<RowRecord>(await store.get(rowKey(scope, id, sk), { consistent: true }));
}

// ---- imported records ----

const orderKey = (scope: Scope, key: string) => keys.unique(scope, 'IMPORTED_ORDER', key);
const customerKey = (scope: Scope, email: string) => keys.unique(scope, 'IMPORTED_CUSTOMER', email);
const productSourceKey = (scope: Scope, source: string, sourceId: string) => keys.unique(scope, 'IMPORTED_PRODUCT', `${source}:${sourceId}`);

export const importedOrderPut = (scope: Scope, order: ImportedOrder): TransactOp => ({
  put: toItem(orderKey(scope, order.key), 'ImportedOrder', order),
  condition: 'attribute_not_exists(PK)',
});
export const importedCustomerPut = (scope: Scope, customer: ImportedCustomer): TransactOp => ({
  put: toItem(customerKey(scope, customer.email), 'ImportedCustomer', customer),
  condition: 'attribute_not_exists(PK)',
});
export const productSourcePut = (scope: Scope, source: string, sourceId: string, productId: string): TransactOp => ({
  put: toItem(productSourceKey(scope, source, sourceId), 'ImportedProductSource', { source, sourceId, productId }),
});

/** Which of these keys are already imported (one batch read). */
export async function importedOrdersAmong(store: Store, scope: Scope, orderKeys: string[]): Promise<Set<string>> {
  if (!orderKeys.length) return new Set();
  const items = await store.batchGet<ImportedOrder>([...new Set(orderKeys)].map((key) => orderKey(scope, key)));
  return new Set(items.map((item) => item.key));
}

export async function importedCustomersAmong(store: Store, scope: Scope, emails: string[]): Promise<Set<string>> {
  if (!emails.length) return new Set();
  const items = await store.batchGet<ImportedCustomer>([...new Set(emails)].map((email) => customerKey(scope, email)));
  return new Set(items.map((item) => item.email));
}

export async function productIdsBySource(store: Store, scope: Scope, source: string, sourceIds: string[]): Promise<Map<string, string>> {
  if (!sourceIds.length) return new Map();
  const items = await store.batchGet<{ sourceId: string; productId: string }>([...new Set(sourceIds)].map((id) => productSourceKey(scope, source, id)));
  return new Map(items.map((item) => [item.sourceId, item.productId]));
}

/**
 * Row markers of a whole batch at once (BatchWriteItem of the row items with their outcome), for
 * rows whose effects are idempotent without the marker's condition (subscribers: the contact id
 * comes from the row). Written after those effects, so a marker never claims work not done.
 */
export async function markRows(store: Store, scope: Scope, id: string, rows: RowRecord[]): Promise<void> {
  await store.batchPut(rows.map((row) => rowItem(scope, id, row)));
}

// ---- a buyer's export and erasure (shared/imports/privacy.ts): the erasure worker reads whole collections ----

export const importedCustomerOf = async (store: Store, scope: Scope, email: string) => toRecord<ImportedCustomer>(await store.get(customerKey(scope, email)));

export const importedCustomerDelete = (store: Store, scope: Scope, email: string) => store.delete(customerKey(scope, email));

/** One page of the imported orders bought with `email` (the filter runs in DynamoDB). */
export async function importedOrdersOfPage(store: Store, scope: Scope, email: string, cursor: string | undefined) {
  const page = await store.query({
    pk: orderKey(scope, '').PK,
    cursor,
    filter: { expression: '#email = :email', names: { '#email': 'email' }, values: { ':email': email } },
  });
  return { items: page.items.map((item) => toRecord<ImportedOrder>(item)!), cursor: page.cursor };
}

/** The buyer's address off an imported order; the purchase history (product, amount, date) stays. */
export const importedOrderEmailErasure = (store: Store, scope: Scope, key: string) =>
  store.update(orderKey(scope, key), { set: { email: '' } }, { mustExist: true });

/** One page of a job's rows that hold `email` in one of their cells. */
export async function rowsHoldingPage(store: Store, scope: Scope, id: string, email: string, cursor: string | undefined) {
  const page = await store.query({
    pk: keys.children(scope, IMPORT, id, ROW),
    ascending: true,
    cursor,
    filter: { expression: 'contains(#raw, :email)', names: { '#raw': 'raw' }, values: { ':email': email } },
  });
  return { rows: page.items.map((item) => toRecord<RowRecord>(item)!), cursor: page.cursor };
}

/**
 * A row's cells emptied (the address and whatever else the file said about the person), and the
 * reason says so. A subscriber row's outcome is read from its address (the contact it names), so a
 * row without one shows as skipped, never as still to do.
 */
export const rowCellsErasure = (store: Store, scope: Scope, id: string, row: RowRecord) =>
  store.update(
    rowKey(scope, id, row.sk),
    { set: { raw: row.raw.map(() => ''), state: row.state === 'pending' ? 'skipped' : row.state, reason: ERASED_ROW_REASON } },
    { mustExist: true },
  );

export const ERASED_ROW_REASON = "erased: this buyer's data was erased at their request";
