import { stringify } from 'csv-stringify/sync';
import { createHash } from 'node:crypto';
import { erasedAmong } from '../platform/privacy';
import { contactIdsByEmail, importContacts, suppressedAmong, type ImportContactInput } from '../audience/service';
import { createProduct, listProductViews } from '../catalog/service';
import { getAccount } from '../platform/accounts';
import type { Account, Deps } from '../platform/context';
import type { Actor } from '../platform/permissions';
import { badGateway, badRequest, conflict, notFound } from '../platform/errors';
import { objectId, randomHex } from '../platform/ids';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import type { TransactOp } from '../store/store';
import { KINDS, PLATFORMS, platformOf, type Kind } from './platforms';
import { counterName, OUTCOMES, type ImportFile, type ImportRecord, type ProductFile, type RowRecord, type RowState } from './records';
import { PullError, pullFromPlatform, type PulledTable } from './platform-api';
import { fetchProductFile, linkProblem, UPLOAD_BYTES } from './product-files';
import { storeImportedFile } from '../product-files/service';
import * as repo from './repository';
import { blobFileName, checkRow, detectMapping, mappingProblems, parseCsv, parseCsvRows, type Checked, type Mapping, type OrderRow, type ProductRow, type SubscriberRow } from './rules';

import { armSweep, IMPORT_QUEUE, sweepTimer } from './sweep';

export type ImportsCtx = Deps & { scope: Scope; account: Account; actor?: Actor };

export { IMPORT_QUEUE } from './sweep';
/**
 * Rows per batch: one lease renewal, one cursor move and one progress update for this many rows.
 * Subscriber rows cost 3 item writes each, so a batch is ~750 writes: seconds on DynamoDB
 * Local, well inside the lease, and cancel still stops within a few seconds.
 */
export const BATCH_ROWS = 250;
const LEASE_MS = 60_000;

// ---- views ----

export function progressOf(record: ImportRecord) {
  const progress: Record<string, Record<string, number>> = {};
  for (const kind of KINDS) {
    const file = record.files[kind];
    if (!file) continue;
    const counts = Object.fromEntries(OUTCOMES.map((outcome) => [outcome, record[counterName(kind, outcome)] ?? 0]));
    progress[kind] = { total: file.rowCount, done: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
  }
  return progress;
}

export function toView(record: ImportRecord) {
  return {
    _id: record._id,
    source: record.source,
    status: record.status,
    files: KINDS.flatMap((kind) => {
      const file = record.files[kind];
      if (!file) return [];
      const processing = isStoring(record, kind);
      return [{ kind, filename: file.filename, columns: file.header, rowCount: file.rowCount, status: processing ? ('processing' as const) : ('ready' as const), rowsStored: processing ? (record[`stored_${kind}`] ?? 0) : file.rowCount, addedAt: file.addedAt }];
    }),
    mapping: Object.fromEntries(KINDS.flatMap((kind) => (record.files[kind] ? [[kind, record.files[kind]!.mapping]] : []))),
    dryRun: record.dryRun,
    dryRunComputing: !!record.dryRunRequestedAt && !record.dryRun,
    progress: progressOf(record),
    cancelRequested: record.cancelRequested,
    createdBy: record.createdBy,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
  };
}
export type ImportView = ReturnType<typeof toView>;

export const listPlatforms = () => ({
  sources: [
    { id: 'csv', name: 'Any CSV', category: 'generic', apiSupported: false, exports: KINDS.map((kind) => ({ kind, name: `${kind} CSV`, columns: [] as string[] })) },
    ...PLATFORMS.map(({ id, name, category, apiSupported, docs, exports }) => ({ id, name, category, apiSupported, docs, exports: exports.map(({ kind, name: exportName, columns }) => ({ kind, name: exportName, columns })) })),
  ],
});

// ---- drafts and files ----

async function requireImport(deps: Deps, scope: Scope, id: string): Promise<ImportRecord> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record) throw notFound('Import');
  return record;
}

export const readImport = async (ctx: ImportsCtx, id: string) => toView(await requireImport(ctx, ctx.scope, id));

function requireEditable(record: ImportRecord) {
  if (record.status !== 'draft') throw conflict(`The import is ${record.status}; files and mapping change only on a draft`, 'IMPORT_NOT_DRAFT');
}

/** A large file whose rows a queue worker is still storing. */
const isStoring = (record: ImportRecord, kind: Kind) => !!record.files[kind] && !!record[`storing_${kind}`] && record[`storing_${kind}`] === record.files[kind]!.uploadId;

/**
 * 409 while rows of these kinds (every kind when none is named) are being stored or deleted: what
 * needs the rows (dry run, start, mapping, rows, errors.csv) waits until the file is `ready`.
 */
function requireStored(record: ImportRecord, kinds: readonly Kind[] = KINDS, what = 'this') {
  for (const kind of kinds) {
    if (isStoring(record, kind)) {
      const stored = record[`stored_${kind}`] ?? 0;
      throw conflict(`The ${kind} file is still processing (${stored} of ${record.files[kind]!.rowCount} rows stored); ${what} works once its status is ready`, 'IMPORT_FILE_PROCESSING', { kind, rowsStored: stored, rowCount: record.files[kind]!.rowCount });
    }
  }
}

export async function createImport(ctx: ImportsCtx, input: { source: string; files?: { kind: Kind; filename: string; csv: string }[] }): Promise<ImportView> {
  const kinds = (input.files ?? []).map((file) => file.kind);
  const duplicate = kinds.find((kind, index) => kinds.indexOf(kind) !== index);
  if (duplicate) throw badRequest(`files: two files of kind ${duplicate}; one file per kind`, { field: 'files' });
  // Parse everything before writing anything, so a bad file changes nothing.
  const parsed = (input.files ?? []).map((file, index) => ({ ...file, parsed: parseOrThrow(file.csv, `files.${index}.csv`) }));
  const now = ctx.clock.now().toISOString();
  const record: ImportRecord = {
    _id: objectId(ctx.clock),
    source: input.source,
    status: 'draft',
    files: {},
    dryRun: null,
    // Staff (the admin CLI's session token) start imports for a creator: recorded as `admin`.
    createdBy: { type: ctx.actor?.type === 'owner_key' && ctx.actor.staff ? 'admin' : 'user' },
    cursor: null,
    leaseUntil: 0,
    cancelRequested: false,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
  };
  await repo.putImport(ctx.store, ctx.scope, record);
  let current = record;
  for (const file of parsed) current = await storeFile(ctx, current, file);
  return toView(current);
}

function parseOrThrow(csv: string, field: string) {
  try {
    return parseCsv(csv);
  } catch (error) {
    throw badRequest(`${field}: not a readable CSV file (${(error as Error).message})`, { field });
  }
}

const rowsOf = (kind: Kind, rows: string[][], from = 0): RowRecord[] => rows.map((raw, index) => ({ sk: repo.rowSk(kind, from + index + 1), kind, n: from + index + 1, raw, state: 'pending' }));

/** A file being added or replaced must not have its rows (or a removed file's) still in the worker's hands. */
function requireKindFree(record: ImportRecord, kind: Kind) {
  requireStored(record, [kind], 'replacing it');
  if (record[`purging_${kind}`]) throw conflict(`The rows of the removed ${kind} file are still being deleted; add the new file once that is done (seconds to a minute)`, 'IMPORT_FILE_PROCESSING', { kind });
}

/**
 * Keeps the CSV in the blob store and stores its rows. A small file's rows are written here; a
 * large one (more rows than IMPORT_INLINE_ROWS, or replacing one) is `processing` and a queue
 * worker stores its rows in chunks (`storeFileRows`), so the request answers in about the time the
 * CSV takes to parse and the Lambda timeout never meets the row count. The CSV was parsed (and
 * refused with a 400 if unreadable) before anything was written.
 */
async function storeFile(ctx: ImportsCtx, record: ImportRecord, file: { kind: Kind; filename: string; csv: string; parsed: ReturnType<typeof parseCsv>; mapping?: Mapping; origin?: 'api' }): Promise<ImportRecord> {
  const previous = record.files[file.kind];
  requireKindFree(record, file.kind);
  const uploadId = randomHex(8);
  const blobKey = `imports/${ctx.scope.accountId}/${ctx.scope.mode}/${record._id}/${file.kind}-${uploadId}.csv`;
  await ctx.ports.blob.put(blobKey, Buffer.from(file.csv, 'utf8'), 'text/csv');
  const rowCount = file.parsed.rows.length;
  const inline = ctx.config.IMPORT_INLINE_ROWS;
  const deferred = rowCount > inline || (previous?.rowCount ?? 0) > inline;
  if (!deferred) {
    // Rows 1..n are overwritten; the previous file's rows past n are deleted (few: it was small).
    await repo.putRows(ctx.store, ctx.scope, record._id, rowsOf(file.kind, file.parsed.rows));
    if (previous && previous.rowCount > rowCount) await repo.deleteRowsAbove(ctx.store, ctx.scope, record._id, file.kind, rowCount);
  }
  const entry: ImportFile = {
    kind: file.kind,
    filename: file.filename,
    header: file.parsed.header,
    rowCount,
    mapping: file.mapping ?? detectMapping(record.source, file.kind, file.parsed.header),
    blobKey,
    uploadId,
    addedAt: ctx.clock.now().toISOString(),
    ...(file.origin ? { origin: file.origin } : {}),
  };
  const next = await repo.updateImport(
    ctx.store,
    ctx.scope,
    record._id,
    { set: { files: { ...record.files, [file.kind]: entry }, dryRun: null, dryRunRequestedAt: null, updatedAt: entry.addedAt, ...(deferred ? { [`storing_${file.kind}`]: uploadId, [`stored_${file.kind}`]: 0 } : {}) } },
    draftOnly,
  );
  if (deferred) await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: record._id, store: file.kind, uploadId });
  if (previous && previous.blobKey !== blobKey) await ctx.ports.blob.delete(previous.blobKey).catch(() => undefined);
  return next;
}

const draftOnly = { expression: '#status = :draft', names: { '#status': 'status' }, values: { ':draft': 'draft' } };

/**
 * The file worker: one queue message stores up to IMPORT_FILE_CHUNK_ROWS rows of a `processing`
 * file from its CSV in the blob store, records how many are stored (conditional on the upload
 * still being the one stored) and queues the next chunk; then deletes what a replaced file left
 * past the new row count, and marks the file ready. For a removed file (`purge`) it deletes the
 * rows chunk by chunk. A message for an upload that is no longer current does nothing, and a
 * redelivered one redoes at most its own chunk (the same rows, the same keys).
 */
export async function storeFileRows(deps: Deps, scope: Scope, id: string, kind: Kind, uploadId: string, purge = false): Promise<void> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record) return;
  const chunk = deps.config.IMPORT_FILE_CHUNK_ROWS;
  const again = () => deps.ports.queue.send(IMPORT_QUEUE, { scope, importId: id, [purge ? 'purge' : 'store']: kind, uploadId });
  const owned = (attribute: string) => ({ expression: '#owner = :upload', names: { '#owner': attribute }, values: { ':upload': uploadId } });
  if (purge) {
    if (record[`purging_${kind}`] !== uploadId) return;
    if (await repo.deleteRowsAbove(deps.store, scope, id, kind, 0, chunk)) return again();
    await conditionally(repo.updateImport(deps.store, scope, id, { remove: [`purging_${kind}`] }, owned(`purging_${kind}`)));
    return;
  }
  const file = record.files[kind];
  if (!file || !isStoring(record, kind) || file.uploadId !== uploadId) return;
  const stored = record[`stored_${kind}`] ?? 0;
  if (stored < file.rowCount) {
    const blob = await deps.ports.blob.get(file.blobKey);
    if (!blob) throw new Error(`import ${id}: the ${kind} file ${file.blobKey} is not in the blob store`);
    const to = Math.min(file.rowCount, stored + chunk);
    const rows = parseCsvRows(Buffer.from(blob.body).toString('utf8'), stored, to);
    await repo.putRows(deps.store, scope, id, rowsOf(kind, rows, stored));
    const moved = await conditionally(repo.updateImport(deps.store, scope, id, { set: { [`stored_${kind}`]: to } }, owned(`storing_${kind}`)));
    if (moved) await again();
    return;
  }
  // The rows a replaced, longer file left past this one's count.
  if (await repo.deleteRowsAbove(deps.store, scope, id, kind, file.rowCount, chunk)) return again();
  await conditionally(repo.updateImport(deps.store, scope, id, { remove: [`storing_${kind}`, `stored_${kind}`], set: { updatedAt: deps.clock.now().toISOString() } }, owned(`storing_${kind}`)));
}

/** A conditional write whose failure means someone else moved on (a newer upload): false, nothing to do. */
async function conditionally(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}

export async function addFile(ctx: ImportsCtx, id: string, file: { kind: Kind; filename: string; csv: string }): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  requireEditable(record);
  return toView(await storeFile(ctx, record, { ...file, parsed: parseOrThrow(file.csv, 'csv') }));
}

/**
 * Removes a file. A small file's rows go with it; a large one's are deleted by the file worker
 * afterwards (`purging_<kind>`): the file is gone at once (its rows are never read without it), and
 * a new file of that kind waits until they are.
 */
export async function removeFile(ctx: ImportsCtx, id: string, kind: Kind): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  requireEditable(record);
  const file = record.files[kind];
  if (!file) throw notFound(`File of kind ${kind}`);
  requireStored(record, [kind], 'removing it');
  const deferred = file.rowCount > ctx.config.IMPORT_INLINE_ROWS;
  const purgeId = randomHex(8);
  if (!deferred) await repo.deleteRowsAbove(ctx.store, ctx.scope, id, kind, 0, ctx.config.IMPORT_INLINE_ROWS + 1);
  const files = { ...record.files };
  delete files[kind];
  const next = await repo.updateImport(ctx.store, ctx.scope, id, { set: { files, dryRun: null, dryRunRequestedAt: null, updatedAt: ctx.clock.now().toISOString(), ...(deferred ? { [`purging_${kind}`]: purgeId } : {}) } }, draftOnly);
  if (deferred) await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: id, purge: kind, uploadId: purgeId });
  await ctx.ports.blob.delete(file.blobKey);
  return toView(next);
}

export async function updateMapping(ctx: ImportsCtx, id: string, kind: Kind, change: Mapping) {
  const record = await requireImport(ctx, ctx.scope, id);
  requireEditable(record);
  const file = record.files[kind];
  if (!file) throw notFound(`File of kind ${kind}`);
  requireStored(record, [kind], 'fixing its mapping');
  const mapping = { ...file.mapping, ...change };
  const problems = mappingProblems(kind, mapping, file.header);
  if (problems.length) throw badRequest(`mapping: ${problems.join('; ')}`, { field: 'mapping', details: { problems } });
  const next = await repo.updateImport(ctx.store, ctx.scope, id, { set: { files: { ...record.files, [kind]: { ...file, mapping } }, dryRun: null, dryRunRequestedAt: null, updatedAt: ctx.clock.now().toISOString() } }, draftOnly);
  const counts = { total: 0, problems: 0 };
  for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, kind)) {
    for (const row of rows) {
      counts.total++;
      if (!checkFileRow(next, row).ok) counts.problems++;
    }
  }
  return { ...toView(next), revalidated: { kind, ...counts } };
}

const checkFileRow = (record: ImportRecord, row: RowRecord): Checked => {
  const file = record.files[row.kind]!;
  const problems = mappingProblems(row.kind, file.mapping, file.header);
  if (problems.length) return { ok: false, reason: `mapping: ${problems.join('; ')}` };
  return checkRow(row.kind, file.header, row.raw, file.mapping, { source: record.source, filename: file.filename });
};

export async function listRows(ctx: ImportsCtx, id: string, query: { kind?: Kind; filter?: 'problems' | 'all'; page: number; pageSize: number }) {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, query.kind ? [query.kind] : KINDS, 'listing its rows');
  const wanted = (row: RowRecord, checked: Checked) => query.filter !== 'problems' || !checked.ok || row.state === 'failed' || (row.state === 'skipped' && !!row.reason);
  const skip = (query.page - 1) * query.pageSize;
  let seen = 0;
  let more = false;
  const picked: { row: RowRecord; checked: Checked }[] = [];
  for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, query.kind)) {
    for (const row of rows) {
      if (!record.files[row.kind]) continue;
      const checked = checkFileRow(record, row);
      if (!wanted(row, checked)) continue;
      if (seen++ < skip) continue;
      if (picked.length === query.pageSize) {
        more = true;
        break;
      }
      picked.push({ row, checked });
    }
    if (more) break;
  }
  const derived = await subscriberRowStates(ctx, record, picked.map((p) => p.row));
  const out = picked.map(({ row, checked }) => {
    const file = record.files[row.kind]!;
    return { kind: row.kind, row: row.n, values: Object.fromEntries(file.header.map((column, index) => [column, row.raw[index] ?? ''])), state: derived.get(row.sk)?.state ?? row.state, problem: checked.ok || row.reason === repo.ERASED_ROW_REASON ? (row.reason ?? null) : checked.reason };
  });
  return { rows: out, page: query.page, pageSize: query.pageSize, hasMore: more };
}

/** Where `connect` pulls from: the platform's own API unless config points it elsewhere (tests). */
const apiBase = (ctx: ImportsCtx, platform: string): string | undefined =>
  ({ gumroad: ctx.config.IMPORT_GUMROAD_API_URL, shopify: ctx.config.IMPORT_SHOPIFY_API_URL, mailchimp: ctx.config.IMPORT_MAILCHIMP_API_URL })[platform];

/**
 * Pulls the account's records from the platform's API with `token` and stores them as the draft's
 * files (one per kind, replacing an uploaded one), so validation, mapping, dry run and run are
 * the CSV path's. Everything is pulled before anything is written: a refused token or a platform
 * that is down changes nothing. The token lives only in this call.
 */
export async function connectPlatform(ctx: ImportsCtx, id: string, input: { token: string; shop?: string }) {
  const record = await requireImport(ctx, ctx.scope, id);
  const platform = platformOf(record.source);
  if (!platform) throw badRequest(`source: ${record.source} has no API to pull from; upload CSV files instead`, { field: 'source' });
  requireEditable(record);
  let tables: PulledTable[];
  try {
    tables = await pullFromPlatform(platform.id, input.token, { baseUrl: apiBase(ctx, platform.id), shop: input.shop });
  } catch (error) {
    if (!(error instanceof PullError)) throw error;
    const { failure } = error;
    if (failure.type === 'unavailable') throw badGateway(failure.message, 'PLATFORM_UNAVAILABLE');
    throw badRequest(failure.message, { field: failure.type === 'token' ? 'token' : 'shop', code: failure.type === 'token' ? 'PLATFORM_TOKEN_REFUSED' : undefined });
  }
  let current = record;
  for (const table of tables) {
    const csv = stringify([table.header, ...table.rows]);
    current = await storeFile(ctx, current, { kind: table.kind, filename: table.filename, csv, parsed: { header: table.header, rows: table.rows }, mapping: table.mapping, origin: 'api' });
  }
  return { ...toView(current), pulled: Object.fromEntries(KINDS.map((kind) => [kind, tables.find((table) => table.kind === kind)?.rows.length ?? 0])) };
}

// ---- dry run ----

async function existingProducts(ctx: ImportsCtx) {
  const products = await listProductViews(ctx);
  return new Map(products.map((product) => [product.name.trim().toLowerCase(), product._id as string]));
}

/**
 * The dry run. An import of up to IMPORT_DRY_RUN_INLINE_ROWS rows is computed in the request
 * (200, the spec's answer). A larger one reads too many rows and addresses for a request (50,000
 * subscriber rows: ~50 s on DynamoDB Local), so it answers 202 `{ status: 'computing' }` and a
 * queue worker computes it onto the import (`dryRun`, polled on `GET /migrations/{id}`).
 */
export async function requestDryRun(ctx: ImportsCtx, id: string): Promise<{ status: 200 | 202; body: unknown }> {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, KINDS, 'the dry run');
  const rows = KINDS.reduce((sum, kind) => sum + (record.files[kind]?.rowCount ?? 0), 0);
  if (rows <= ctx.config.IMPORT_DRY_RUN_INLINE_ROWS) return { status: 200, body: await dryRun(ctx, id) };
  const requestedAt = ctx.clock.now().toISOString();
  await repo.updateImport(ctx.store, ctx.scope, id, { set: { dryRun: null, dryRunRequestedAt: requestedAt } });
  await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: id, dryRun: requestedAt });
  return { status: 202, body: { _id: id, status: 'computing', requestedAt, rows, poll: `/migrations/${id}` } };
}

/** The dry-run worker: computes a requested dry run onto the import, unless a file changed since. */
export async function dryRunInBackground(deps: Deps, scope: Scope, id: string, requestedAt: string): Promise<void> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record || record.dryRunRequestedAt !== requestedAt) return;
  const account = await getAccount(deps.store, scope.accountId);
  if (!account) return;
  await dryRun({ ...deps, scope, account }, id, requestedAt);
}

export async function dryRun(ctx: ImportsCtx, id: string, requestedAt?: string) {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, KINDS, 'the dry run');
  const products = await existingProducts(ctx);
  const kinds = {
    products: { total: 0, invalid: 0, skipped: 0, create: 0, existing: 0, filesToDownload: 0, fileNeeded: 0 },
    orders: { total: 0, invalid: 0, skipped: 0, create: 0, alreadyImported: 0, newCustomers: 0, refunded: 0 },
    subscribers: { total: 0, invalid: 0, noConsent: 0, create: 0, active: 0, unsubscribed: 0, existing: 0, suppressed: 0, overLimit: 0, activeNow: 0 },
    customers: { total: 0, invalid: 0, create: 0, existing: 0 },
  };
  const notes: string[] = [];
  const newProductNames = new Set<string>();
  const orderEmails = new Set<string>();
  for (const kind of KINDS) {
    const file = record.files[kind];
    if (!file) continue;
    const problems = mappingProblems(kind, file.mapping, file.header);
    if (problems.length) notes.push(`${kind}: ${problems.join('; ')}`);
    for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, kind)) {
      const checked = rows.map((row) => checkFileRow(record, row));
      const valid = checked.flatMap((c) => (c.ok ? [c.row] : []));
      const invalid = checked.length - valid.length;
      if (kind === 'products') {
        const k = kinds.products;
        k.total += rows.length;
        k.invalid += invalid;
        for (const row of valid as ProductRow[]) {
          const name = row.name.toLowerCase();
          if (products.has(name) || newProductNames.has(name)) k.existing++;
          else {
            newProductNames.add(name);
            k.create++;
            if (row.fileUrl) linkProblem(row.fileUrl) ? k.fileNeeded++ : k.filesToDownload++;
          }
        }
      } else if (kind === 'customers') {
        const k = kinds.customers;
        k.total += rows.length;
        k.invalid += invalid;
        const emails = (valid as { email: string }[]).map((row) => row.email);
        const known = await repo.importedCustomersAmong(ctx.store, ctx.scope, emails);
        for (const email of emails) known.has(email) ? k.existing++ : k.create++;
      } else if (kind === 'orders') {
        const k = kinds.orders;
        k.total += rows.length;
        k.invalid += invalid;
        const orders = valid as OrderRow[];
        const done = await repo.importedOrdersAmong(ctx.store, ctx.scope, orders.map((order) => order.key));
        const seen = new Set<string>();
        for (const order of orders) {
          if (done.has(order.key)) k.alreadyImported++;
          else if (seen.has(order.key)) k.skipped++;
          else {
            seen.add(order.key);
            k.create++;
            if (order.refunded) k.refunded++;
            orderEmails.add(order.email);
          }
        }
      } else {
        const k = kinds.subscribers;
        k.total += rows.length;
        k.invalid += invalid;
        const subscribers = valid as SubscriberRow[];
        const [suppressed, known] = await Promise.all([suppressedAmong(ctx, ctx.scope, subscribers.map((row) => row.email)), contactIdsByEmail(ctx, ctx.scope, subscribers.map((row) => row.email))]);
        for (const row of subscribers) {
          if (!row.status) k.noConsent++;
          else if (suppressed.has(row.email)) k.suppressed++;
          else if (known.has(row.email)) k.existing++;
          else {
            k.create++;
            if (row.status === 'subscribed') k.active++;
            else k.unsubscribed++;
          }
        }
        k.activeNow = k.active;
      }
    }
  }
  const known = await repo.importedCustomersAmong(ctx.store, ctx.scope, [...orderEmails]);
  kinds.orders.newCustomers = [...orderEmails].filter((email) => !known.has(email)).length;
  if (kinds.products.filesToDownload) notes.push(`${kinds.products.filesToDownload} product file(s) will be downloaded from their links (public https only, up to ${Math.floor(UPLOAD_BYTES[ctx.account.plan] / (1024 * 1024))} MB, deliverable types); a link that fails marks its product fileNeeded`);
  if (kinds.products.fileNeeded) notes.push(`${kinds.products.fileNeeded} product file link(s) are refused (not public https); those products are created fileNeeded`);
  if (!Object.keys(record.files).length) notes.push('Add at least one file');
  notes.push('Nobody is emailed by an import; purchase history is kept as imported records and never counts as sales.');
  const result = {
    computedAt: ctx.clock.now().toISOString(),
    canStart: Object.keys(record.files).length > 0 && !KINDS.some((kind) => record.files[kind] && mappingProblems(kind, record.files[kind]!.mapping, record.files[kind]!.header).length) && record.status !== 'running' && record.status !== 'completed',
    subscriberLimit: null,
    kinds,
    notes,
  };
  // A background dry run lands only if no file or mapping changed since it was asked for.
  const unchanged = requestedAt ? { expression: 'dryRunRequestedAt = :requested', values: { ':requested': requestedAt } } : undefined;
  await conditionally(repo.updateImport(ctx.store, ctx.scope, id, { set: { dryRun: result, dryRunRequestedAt: null } }, unchanged));
  return result;
}

// ---- run ----

export async function startImport(ctx: ImportsCtx, id: string): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  if (record.status === 'running') throw conflict('The import is already running', 'IMPORT_RUNNING');
  if (record.status === 'completed') throw conflict('The import is completed', 'IMPORT_COMPLETED');
  if (!Object.keys(record.files).length) throw badRequest('Add at least one file before starting', { field: 'files' });
  requireStored(record, KINDS, 'start');
  for (const kind of KINDS) {
    const file = record.files[kind];
    const problems = file ? mappingProblems(kind, file.mapping, file.header) : [];
    if (problems.length) throw badRequest(`mapping of ${kind}: ${problems.join('; ')}`, { field: `mapping.${kind}` });
  }
  let next: ImportRecord;
  try {
    // A failed or canceled import resumes from its cursor: rows already done keep their markers.
    next = await repo.updateImport(
      ctx.store,
      ctx.scope,
      id,
      { set: { status: 'running', cancelRequested: false, leaseUntil: 0, startedAt: record.startedAt ?? ctx.clock.now().toISOString(), finishedAt: null, updatedAt: ctx.clock.now().toISOString() } },
      { expression: '#status = :status', names: { '#status': 'status' }, values: { ':status': record.status } },
    );
  } catch (error) {
    if (isConditionFailed(error)) throw conflict('The import changed while this request ran; try again', 'CONCURRENT_UPDATE');
    throw error;
  }
  await armSweep(ctx, ctx.scope, id);
  await ctx.ports.queue.send(IMPORT_QUEUE, { scope: ctx.scope, importId: id });
  return toView(next);
}

export async function cancelImport(ctx: ImportsCtx, id: string): Promise<ImportView> {
  const record = await requireImport(ctx, ctx.scope, id);
  if (record.status !== 'running') throw conflict(`Only a running import can be canceled; this one is ${record.status}`, 'IMPORT_NOT_RUNNING');
  return toView(await repo.updateImport(ctx.store, ctx.scope, id, { set: { cancelRequested: true, updatedAt: ctx.clock.now().toISOString() } }));
}

/** One batch of a run: claim the lease, do up to BATCH_ROWS rows after the cursor, move it, queue the next. */
export async function runBatch(deps: Deps, scope: Scope, id: string): Promise<void> {
  const now = deps.clock.nowMs();
  let record: ImportRecord;
  try {
    record = await repo.updateImport(deps.store, scope, id, { set: { leaseUntil: now + LEASE_MS } }, {
      expression: '#status = :running AND leaseUntil < :now',
      names: { '#status': 'status' },
      values: { ':running': 'running', ':now': now },
    });
  } catch (error) {
    if (isConditionFailed(error)) return; // not running, or another worker holds the lease
    throw error;
  }
  if (record.cancelRequested) return finish(deps, scope, record, 'canceled');
  const account = await getAccount(deps.store, scope.accountId);
  if (!account) return finish(deps, scope, record, 'failed');
  const ctx: ImportsCtx = { ...deps, scope, account };
  const page = await repo.rowPage(deps.store, scope, id, { after: record.cursor ?? undefined, limit: BATCH_ROWS });
  // Rows past the file's count are leftovers of an upload that failed half-way; they never run.
  const rows = page.rows.filter((row) => row.n <= (record.files[row.kind]?.rowCount ?? 0));
  let states: Map<string, RowState>;
  try {
    states = await processRows(ctx, record, rows);
  } catch (error) {
    // Rows done so far keep their markers; the sweep or a new start goes on from the cursor.
    await repo.updateImport(deps.store, scope, id, { set: { leaseUntil: 0 } });
    throw error;
  }
  // The counters move with the cursor in one conditional write: each row is counted exactly once,
  // also the rows an earlier, crashed attempt marked done before it could move the cursor.
  const add: Record<string, number> = {};
  for (const row of rows) {
    const state = states.get(row.sk) ?? row.state;
    if (state !== 'pending') add[counterName(row.kind, state)] = (add[counterName(row.kind, state)] ?? 0) + 1;
  }
  const last = page.rows.at(-1)?.sk ?? record.cursor;
  const completed = !page.cursor;
  await repo.updateImport(
    deps.store,
    scope,
    id,
    {
      set: { cursor: last, leaseUntil: 0, updatedAt: deps.clock.now().toISOString(), ...(completed ? { status: 'completed', cancelRequested: false, finishedAt: deps.clock.now().toISOString() } : {}) },
      add,
    },
    { expression: '#cursor = :cursor', names: { '#cursor': 'cursor' }, values: { ':cursor': record.cursor } },
  );
  if (completed) await deps.ports.scheduler.cancel(sweepTimer(scope, id));
  else await deps.ports.queue.send(IMPORT_QUEUE, { scope, importId: id });
}

async function finish(deps: Deps, scope: Scope, record: ImportRecord, status: 'canceled' | 'failed') {
  await repo.updateImport(deps.store, scope, record._id, { set: { status, leaseUntil: 0, cancelRequested: false, finishedAt: deps.clock.now().toISOString(), updatedAt: deps.clock.now().toISOString() } });
  await deps.ports.scheduler.cancel(sweepTimer(scope, record._id));
}

/** Runs `work` over items, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

const ROW_CONCURRENCY = 10;

/**
 * The contact id a subscriber row gets: fixed by the import and the row, so a batch redone after a
 * crash recognises the contacts it created itself (created, not existing) and never makes two.
 * The import's creation second leads, as in every object id.
 */
export const rowContactId = (importId: string, sk: string) => importId.slice(0, 8) + createHash('sha256').update(`${importId}:${sk}`).digest('hex').slice(0, 16);

/**
 * Subscriber rows of a batch, all at once: rules and suppression decide in memory, audience's
 * `importContacts` claims the new addresses (conditional PartiQL INSERTs, 25 a call) and writes the
 * contacts in bulk. Only rows left out or failed get a marker (they carry the reason); a row that
 * ends `created` or `existing` writes nothing of its own: the cursor says it is done and the
 * email claim says which (`subscriberRowStates`), so a subscriber costs its contact's items only.
 */
async function importSubscribers(ctx: ImportsCtx, record: ImportRecord, entries: { row: RowRecord; checked: Checked }[], suppressed: Set<string>, erased: Set<string>, states: Map<string, RowState>) {
  const platform = platformOf(record.source);
  const now = ctx.clock.now().toISOString();
  const source = `${record.source}_${record.files.subscribers?.origin ?? 'csv'}`;
  const wording = platform?.consentWording ?? "Opted in on the creator's previous platform (CSV import)";
  const marked: RowRecord[] = [];
  const mark = (row: RowRecord, state: Exclude<RowState, 'pending'>, reason: string | null, ref: string | null) => marked.push({ ...row, state, reason, ref });
  const toImport: { row: RowRecord; input: ImportContactInput }[] = [];
  for (const { row, checked: c } of entries) {
    if (!c.ok) mark(row, 'failed', c.reason, null);
    else if (c.row.kind !== 'subscribers') mark(row, 'failed', `kind ${c.row.kind} in the subscribers file`, null);
    else if (!c.row.status) mark(row, 'skipped', `noConsent: status "${c.row.rawStatus}" carries no consent`, null);
    else if (suppressed.has(c.row.email)) mark(row, 'skipped', 'suppressed: the address is on the bounce or complaint list', null);
    else if (erased.has(c.row.email)) mark(row, 'skipped', ERASED_REASON, null);
    else {
      const item = c.row;
      const consent = { source, wording, optedInAt: item.optedInAt ?? now };
      toImport.push({ row, input: { id: rowContactId(record._id, row.sk), email: item.email, source: 'import', status: item.status ?? undefined, tags: item.tags, consent, name: item.name } });
    }
  }
  const outcomes = await importContacts(ctx, ctx.scope, toImport.map(({ input }) => input));
  outcomes.forEach((outcome, i) => {
    const { row } = toImport[i]!;
    if (outcome.state === 'failed') mark(row, 'failed', outcome.reason, null);
    else states.set(row.sk, outcome.state);
  });
  await repo.markRows(ctx.store, ctx.scope, record._id, marked);
  for (const row of marked) states.set(row.sk, row.state);
}

/**
 * The state of subscriber rows the run has passed (at or before the cursor) that carry no marker:
 * `created` when the address is held by the contact id derived from the row, otherwise
 * `existing` (another contact had it). One BatchGetItem of the email claims for the page.
 */
async function subscriberRowStates(ctx: ImportsCtx, record: ImportRecord, rows: RowRecord[]): Promise<Map<string, { state: RowState; ref: string | null }>> {
  const passed = rows.flatMap((row) => {
    if (row.kind !== 'subscribers' || row.state !== 'pending' || !record.cursor || row.sk > record.cursor) return [];
    const checked = checkFileRow(record, row);
    return checked.ok && checked.row.kind === 'subscribers' ? [{ row, email: checked.row.email }] : [];
  });
  if (!passed.length) return new Map();
  const holders = await contactIdsByEmail(ctx, ctx.scope, passed.map((p) => p.email));
  return new Map(passed.map(({ row, email }) => {
    const holder = holders.get(email) ?? null;
    return [row.sk, { state: holder === rowContactId(record._id, row.sk) ? 'created' : 'existing', ref: holder }];
  }));
}

const ERASED_REASON = 'erased: this buyer asked for their data to be erased; not imported again';

/**
 * Runs the pending rows of a batch; each row's effect and its marker are one transaction where
 * the effect is ours. Products go one by one (a name repeated in the file is created once); the
 * other kinds run side by side. Answers the state each row ended in.
 */
export async function processRows(ctx: ImportsCtx, record: ImportRecord, rows: RowRecord[]): Promise<Map<string, RowState>> {
  const states = new Map<string, RowState>();
  const pending = rows.filter((row) => row.state === 'pending');
  if (!pending.length) return states;
  const id = record._id;
  const done = async (row: RowRecord, ops: TransactOp[], state: Exclude<RowState, 'pending'>, extra?: { reason?: string | null; ref?: string | null; file?: ProductFile }) => {
    try {
      await ctx.store.transact([...ops, ...repo.rowDone(ctx.scope, id, row, state, extra)]);
      states.set(row.sk, state);
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // Either the row was marked by an earlier attempt, or what it creates exists (imported before).
      const current = await repo.getRow(ctx.store, ctx.scope, id, row.sk);
      if (current && current.state !== 'pending') states.set(row.sk, current.state);
      else await done(row, [], 'existing', { ref: extra?.ref });
    }
  };
  const checked = pending.map((row) => ({ row, checked: checkFileRow(record, row) }));
  const products = checked.some(({ row }) => row.kind === 'products' || row.kind === 'orders') ? await existingProducts(ctx) : new Map<string, string>();
  const sourceIds = await repo.productIdsBySource(ctx.store, ctx.scope, record.source, checked.flatMap(({ checked: c }) => (c.ok && (c.row.kind === 'products' || c.row.kind === 'orders') ? [(c.row.kind === 'products' ? c.row.sourceId : c.row.productId) ?? ''] : [])).filter(Boolean));
  const subscriberEmails = checked.flatMap(({ checked: c }) => (c.ok && c.row.kind === 'subscribers' ? [c.row.email] : []));
  const suppressed = subscriberEmails.length ? await suppressedAmong(ctx, ctx.scope, subscriberEmails) : new Set<string>();
  // Buyers erased on request are not brought back by an old export (the do-not-recreate list).
  const erased = await erasedAmong(ctx, ctx.scope, checked.flatMap(({ checked: c }) => (c.ok && 'email' in c.row && c.row.email ? [c.row.email] : [])));
  const platform = platformOf(record.source);
  const now = ctx.clock.now().toISOString();

  const one = async ({ row, checked: c }: (typeof checked)[number]) => {
    if (!c.ok) return done(row, [], 'failed', { reason: c.reason });
    const item = c.row;
    if ('email' in item && item.email && erased.has(item.email)) return done(row, [], 'skipped', { reason: ERASED_REASON });
    if (item.kind === 'products') {
      const existing = (item.sourceId && sourceIds.get(item.sourceId)) || products.get(item.name.toLowerCase());
      if (existing) return done(row, [], 'existing', { ref: existing });
      // The catalog writes the product and its event; a crash before the marker finds it by name on resume.
      const product = await createProduct(ctx, { name: item.name, price: item.price, ...(item.description ? { description: item.description.slice(0, 5000) } : {}) } as Parameters<typeof createProduct>[1]);
      const productId = product._id as string;
      products.set(item.name.toLowerCase(), productId);
      if (item.sourceId) sourceIds.set(item.sourceId, productId);
      const ops = item.sourceId ? [repo.productSourcePut(ctx.scope, record.source, item.sourceId, productId)] : [];
      if (!item.fileUrl) return done(row, ops, 'created', { ref: productId });
      const fetched = await fetchProductFile(item.fileUrl, ctx.account.plan);
      if (!fetched.ok) return done(row, ops, 'created', { ref: productId, reason: `fileNeeded: ${fetched.reason}` });
      // The product files capability keeps the bytes and the record; the row's marker rides with the record.
      const stored = await storeImportedFile(ctx, ctx.scope, productId, { body: fetched.body, filename: fetched.filename, contentType: fetched.contentType, sourceUrl: item.fileUrl });
      const file = { blobKey: stored.file.blobKey, filename: fetched.filename, contentType: fetched.contentType, size: fetched.size, sourceUrl: item.fileUrl };
      return done(row, [...ops, stored.op], 'created', { ref: productId, file });
    }
    if (item.kind === 'customers') {
      return done(row, [repo.importedCustomerPut(ctx.scope, { email: item.email, name: item.name, country: item.country, source: record.source, importId: id, importedAt: now })], 'created', { ref: item.email });
    }
    if (item.kind === 'orders') {
      const productId = (item.productId && sourceIds.get(item.productId)) || (item.productName ? products.get(item.productName.toLowerCase()) : undefined) || null;
      const order = { key: item.key, importId: id, source: record.source, orderId: item.orderId, email: item.email, productId, productName: item.productName, amountCents: item.amountCents, currency: item.currency, date: item.date, refunded: item.refunded, importedAt: now };
      return done(row, [repo.importedOrderPut(ctx.scope, order)], 'created', { ref: item.key });
    }
    throw new Error(`rows of kind ${item.kind} go through importSubscribers`);
  };
  const productRows = checked.filter(({ row }) => row.kind === 'products');
  for (const entry of productRows) await one(entry);
  // Customers and orders: one small transaction per row (effect and marker), side by side.
  await eachLimited(checked.filter(({ row }) => row.kind === 'customers' || row.kind === 'orders'), ROW_CONCURRENCY, one);
  const subscriberRows = checked.filter(({ row }) => row.kind === 'subscribers');
  if (subscriberRows.length) await importSubscribers(ctx, record, subscriberRows, suppressed, erased, states);
  return states;
}

// ---- report ----

export async function report(ctx: ImportsCtx, id: string) {
  const record = await requireImport(ctx, ctx.scope, id);
  const fileNeeded: { row: number; productId: string | null; reason: string }[] = [];
  const filesAttached: { row: number; productId: string | null; filename: string; size: number; contentType: string }[] = [];
  if (record.files.products) {
    for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, 'products')) {
      for (const row of rows) {
        if (row.reason?.startsWith('fileNeeded')) fileNeeded.push({ row: row.n, productId: row.ref ?? null, reason: row.reason });
        if (row.file) filesAttached.push({ row: row.n, productId: row.ref ?? null, filename: row.file.filename, size: row.file.size, contentType: row.file.contentType });
      }
    }
  }
  return { _id: record._id, status: record.status, kinds: progressOf(record), fileNeeded, filesAttached, finishedAt: record.finishedAt };
}

/** Every row not imported cleanly, with the reason. */
export async function errorsCsv(ctx: ImportsCtx, id: string): Promise<string> {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, KINDS, 'errors.csv');
  const lines: string[][] = [['kind', 'row', 'state', 'reason', 'data']];
  for await (const rows of repo.eachRow(ctx.store, ctx.scope, id)) {
    for (const row of rows) {
      if (!record.files[row.kind]) continue;
      const checked = row.state === 'pending' ? checkFileRow(record, row) : undefined;
      const reason = checked && !checked.ok ? checked.reason : row.state === 'failed' || row.state === 'skipped' || row.reason ? row.reason : null;
      if (!reason) continue;
      lines.push([row.kind, String(row.n), row.state, reason, row.raw.join(', ')]);
    }
  }
  return stringify(lines);
}
