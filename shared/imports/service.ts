import { stringify } from 'csv-stringify/sync';
import type { Account, Deps } from '../platform/context';
import type { Actor } from '../platform/permissions';
import { badGateway, badRequest, conflict, notFound } from '../platform/errors';
import { objectId, randomHex } from '../platform/ids';
import type { Scope } from '../store/keys';
import { isConditionFailed } from '../store/conditional';
import { KINDS, PLATFORMS, platformOf, type Kind } from './platforms';
import { counterName, OUTCOMES, type ImportFile, type ImportRecord, type RowRecord } from './records';
import { PullError, pullFromPlatform, type PulledTable } from './platform-api';
import * as repo from './repository';
import { detectMapping, mappingProblems, parseCsv, parseCsvRows, type Checked, type Mapping } from './rules';

import { IMPORT_QUEUE } from './sweep';
import { checkFileRow, subscriberRowStates } from './row-states';

export type ImportsCtx = Deps & { scope: Scope; account: Account; actor?: Actor };

export { IMPORT_QUEUE } from './sweep';
/**
 * Rows per batch: one lease renewal, one cursor move and one progress update for this many rows.
 * Subscriber rows cost 3 item writes each, so a batch is ~750 writes: seconds on DynamoDB
 * Local, well inside the lease, and cancel still stops within a few seconds.
 */
export const BATCH_ROWS = 250;
export const LEASE_MS = 60_000;

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
      return [
        {
          kind,
          filename: file.filename,
          columns: file.header,
          rowCount: file.rowCount,
          status: processing ? ('processing' as const) : ('ready' as const),
          rowsStored: processing ? (record[`stored_${kind}`] ?? 0) : file.rowCount,
          addedAt: file.addedAt,
        },
      ];
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
    {
      id: 'csv',
      name: 'Any CSV',
      category: 'generic',
      apiSupported: false,
      exports: KINDS.map((kind) => ({ kind, name: `${kind} CSV`, columns: [] as string[] })),
    },
    ...PLATFORMS.map(({ id, name, category, apiSupported, docs, exports }) => ({
      id,
      name,
      category,
      apiSupported,
      docs,
      exports: exports.map(({ kind, name: exportName, columns }) => ({ kind, name: exportName, columns })),
    })),
  ],
});

export async function requireImport(deps: Deps, scope: Scope, id: string): Promise<ImportRecord> {
  const record = await repo.getImport(deps.store, scope, id);
  if (!record) throw notFound('Import');
  return record;
}

export const readImport = async (ctx: ImportsCtx, id: string) => toView(await requireImport(ctx, ctx.scope, id));

function requireEditable(record: ImportRecord) {
  if (record.status !== 'draft') throw conflict(`The import is ${record.status}; files and mapping change only on a draft`, 'IMPORT_NOT_DRAFT');
}

/** A large file whose rows a queue worker is still storing. */
const isStoring = (record: ImportRecord, kind: Kind) =>
  !!record.files[kind] && !!record[`storing_${kind}`] && record[`storing_${kind}`] === record.files[kind]!.uploadId;

/**
 * 409 while rows of these kinds (every kind when none is named) are being stored or deleted: what
 * needs the rows (dry run, start, mapping, rows, errors.csv) waits until the file is `ready`.
 */
export function requireStored(record: ImportRecord, kinds: readonly Kind[] = KINDS, what = 'this') {
  for (const kind of kinds) {
    if (isStoring(record, kind)) {
      const stored = record[`stored_${kind}`] ?? 0;
      throw conflict(
        `The ${kind} file is still processing (${stored} of ${record.files[kind]!.rowCount} rows stored); ${what} works once its status is ready`,
        'IMPORT_FILE_PROCESSING',
        { kind, rowsStored: stored, rowCount: record.files[kind]!.rowCount },
      );
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

const rowsOf = (kind: Kind, rows: string[][], from = 0): RowRecord[] =>
  rows.map((raw, index) => ({ sk: repo.rowSk(kind, from + index + 1), kind, n: from + index + 1, raw, state: 'pending' }));

/** A file being added or replaced must not have its rows (or a removed file's) still in the worker's hands. */
function requireKindFree(record: ImportRecord, kind: Kind) {
  requireStored(record, [kind], 'replacing it');
  if (record[`purging_${kind}`])
    throw conflict(
      `The rows of the removed ${kind} file are still being deleted; add the new file once that is done (seconds to a minute)`,
      'IMPORT_FILE_PROCESSING',
      { kind },
    );
}

/**
 * Keeps the CSV in the blob store and stores its rows. A small file's rows are written here; a
 * large one (more rows than IMPORT_INLINE_ROWS, or replacing one) is `processing` and a queue
 * worker stores its rows in chunks (`storeFileRows`), so the request answers in about the time the
 * CSV takes to parse and the Lambda timeout never meets the row count. The CSV was parsed (and
 * refused with a 400 if unreadable) before anything was written.
 */
async function storeFile(
  ctx: ImportsCtx,
  record: ImportRecord,
  file: { kind: Kind; filename: string; csv: string; parsed: ReturnType<typeof parseCsv>; mapping?: Mapping; origin?: 'api' },
): Promise<ImportRecord> {
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
    {
      set: {
        files: { ...record.files, [file.kind]: entry },
        dryRun: null,
        dryRunRequestedAt: null,
        updatedAt: entry.addedAt,
        ...(deferred ? { [`storing_${file.kind}`]: uploadId, [`stored_${file.kind}`]: 0 } : {}),
      },
    },
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
  await conditionally(
    repo.updateImport(
      deps.store,
      scope,
      id,
      { remove: [`storing_${kind}`, `stored_${kind}`], set: { updatedAt: deps.clock.now().toISOString() } },
      owned(`storing_${kind}`),
    ),
  );
}

/** A conditional write whose failure means someone else moved on (a newer upload): false, nothing to do. */
export async function conditionally(write: Promise<unknown>): Promise<boolean> {
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
  const next = await repo.updateImport(
    ctx.store,
    ctx.scope,
    id,
    { set: { files, dryRun: null, dryRunRequestedAt: null, updatedAt: ctx.clock.now().toISOString(), ...(deferred ? { [`purging_${kind}`]: purgeId } : {}) } },
    draftOnly,
  );
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
  const next = await repo.updateImport(
    ctx.store,
    ctx.scope,
    id,
    { set: { files: { ...record.files, [kind]: { ...file, mapping } }, dryRun: null, dryRunRequestedAt: null, updatedAt: ctx.clock.now().toISOString() } },
    draftOnly,
  );
  const counts = { total: 0, problems: 0 };
  for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, kind)) {
    for (const row of rows) {
      counts.total++;
      if (!checkFileRow(next, row).ok) counts.problems++;
    }
  }
  return { ...toView(next), revalidated: { kind, ...counts } };
}

export async function listRows(ctx: ImportsCtx, id: string, query: { kind?: Kind; filter?: 'problems' | 'all'; page: number; pageSize: number }) {
  const record = await requireImport(ctx, ctx.scope, id);
  requireStored(record, query.kind ? [query.kind] : KINDS, 'listing its rows');
  const wanted = (row: RowRecord, checked: Checked) =>
    query.filter !== 'problems' || !checked.ok || row.state === 'failed' || (row.state === 'skipped' && !!row.reason);
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
  const derived = await subscriberRowStates(
    ctx,
    record,
    picked.map((p) => p.row),
  );
  const out = picked.map(({ row, checked }) => {
    const file = record.files[row.kind]!;
    return {
      kind: row.kind,
      row: row.n,
      values: Object.fromEntries(file.header.map((column, index) => [column, row.raw[index] ?? ''])),
      state: derived.get(row.sk)?.state ?? row.state,
      problem: checked.ok || row.reason === repo.ERASED_ROW_REASON ? (row.reason ?? null) : checked.reason,
    };
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
    throw badRequest(failure.message, {
      field: failure.type === 'token' ? 'token' : 'shop',
      code: failure.type === 'token' ? 'PLATFORM_TOKEN_REFUSED' : undefined,
    });
  }
  let current = record;
  for (const table of tables) {
    const csv = stringify([table.header, ...table.rows]);
    current = await storeFile(ctx, current, {
      kind: table.kind,
      filename: table.filename,
      csv,
      parsed: { header: table.header, rows: table.rows },
      mapping: table.mapping,
      origin: 'api',
    });
  }
  return { ...toView(current), pulled: Object.fromEntries(KINDS.map((kind) => [kind, tables.find((table) => table.kind === kind)?.rows.length ?? 0])) };
}
