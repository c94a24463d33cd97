import { defineOperation, rawReply, reply } from '../platform/operation';
import { connectBody, createBody, fileInput, idParams, importView, kindParams, listQuery, mappingBody, rowsQuery } from './schemas';
import * as service from './service';
import { toView } from './service';
import { requestDryRun } from './dry-run';
import { cancelImport, startImport } from './run';
import { errorsCsv, report } from './report';
import { listImports } from './repository';

const tags = ['Imports'];
const plan = 'volume' as const;

export const importsOperations = [
  defineOperation({
    operationId: 'listImportPlatforms',
    tool: 'list_import_platforms',
    tags,
    auth: 'key',
    summary: 'Sources: csv and the supported platforms, with the columns of each CSV export and whether its API is supported',
    method: 'GET',
    path: '/migrations/platforms',
    handler: async () => service.listPlatforms(),
  }),
  defineOperation({
    operationId: 'listImportJobs',
    tool: 'list_import_jobs',
    tags,
    auth: 'key',
    summary: 'Imports, newest first',
    method: 'GET',
    path: '/migrations',
    query: listQuery,
    handler: async (ctx, { query }) => {
      // Imports are few per account (created by hand); pages are walked with the store's cursor.
      let cursor: string | undefined;
      for (let page = 1; ; page++) {
        const result = await listImports(ctx.store, ctx.scope, { limit: query.pageSize, cursor });
        if (page === query.page) return { data: result.items.map(toView), page: query.page, pageSize: query.pageSize, hasMore: !!result.cursor };
        if (!result.cursor) return { data: [], page: query.page, pageSize: query.pageSize, hasMore: false };
        cursor = result.cursor;
      }
    },
  }),
  defineOperation({
    operationId: 'createImportJob',
    tool: 'create_import_job',
    tags,
    auth: 'key',
    plan,
    summary: 'Creates a draft import: { source, files?: [{ kind, filename, csv }] }; the mapping of each file is detected',
    method: 'POST',
    path: '/migrations',
    body: createBody,
    status: 201,
    output: importView,
    handler: async (ctx, { body }) => service.createImport(ctx, body as Parameters<typeof service.createImport>[1]),
  }),
  defineOperation({
    operationId: 'getImportJob',
    tool: 'get_import_job',
    tags,
    auth: 'key',
    summary: 'Files, mapping, dry run, status and progress',
    method: 'GET',
    path: '/migrations/{id}',
    params: idParams,
    output: importView,
    handler: async (ctx, { params }) => service.readImport(ctx, params.id),
  }),
  defineOperation({
    operationId: 'addImportFile',
    tool: 'add_import_file',
    tags,
    auth: 'key',
    plan,
    summary: 'Adds or replaces the CSV export of one kind: { kind, filename, csv }',
    method: 'POST',
    path: '/migrations/{id}/files',
    params: idParams,
    body: fileInput,
    output: importView,
    handler: async (ctx, { params, body }) => service.addFile(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'updateImportMapping',
    tool: 'update_import_mapping',
    tags,
    auth: 'key',
    plan,
    summary: 'Fixes the column mapping of a file ({ mapping: { field: column | null } }); its rows are revalidated',
    method: 'PUT',
    path: '/migrations/{id}/files/{kind}/mapping',
    params: kindParams,
    body: mappingBody,
    handler: async (ctx, { params, body }) => service.updateMapping(ctx, params.id, params.kind, body.mapping),
  }),
  defineOperation({
    operationId: 'removeImportFile',
    tool: 'remove_import_file',
    tags,
    auth: 'key',
    plan,
    summary: 'Removes the file of one kind',
    method: 'DELETE',
    path: '/migrations/{id}/files/{kind}',
    params: kindParams,
    output: importView,
    handler: async (ctx, { params }) => service.removeFile(ctx, params.id, params.kind),
  }),
  defineOperation({
    operationId: 'listImportRows',
    tool: 'list_import_rows',
    tags,
    auth: 'key',
    summary: 'Rows of the files with their state and problem; filter=problems for rows that will not import cleanly',
    method: 'GET',
    path: '/migrations/{id}/rows',
    params: idParams,
    query: rowsQuery,
    handler: async (ctx, { params, query }) => service.listRows(ctx, params.id, query),
  }),
  defineOperation({
    operationId: 'connectImportAccount',
    tool: 'connect_import_account',
    tags,
    auth: 'key',
    plan,
    summary:
      "Pulls products, customers, purchase history and subscribers from the platform API with { token } (never stored; Shopify also needs { shop }) into the draft's files",
    method: 'POST',
    path: '/migrations/{id}/connect',
    params: idParams,
    body: connectBody,
    handler: async (ctx, { params, body }) => service.connectPlatform(ctx, params.id, body),
  }),
  defineOperation({
    operationId: 'dryRunImportJob',
    tool: 'dry_run_import_job',
    tags,
    auth: 'key',
    plan,
    summary: 'Computes what the run will do, per kind (200); a large import answers 202 { status: computing } and the dry run appears on the import',
    method: 'POST',
    path: '/migrations/{id}/dry-run',
    params: idParams,
    handler: async (ctx, { params }) => {
      const { status, body } = await requestDryRun(ctx, params.id);
      return status === 200 ? body : reply(202, body);
    },
  }),
  defineOperation({
    operationId: 'startImportJob',
    tool: 'start_import_job',
    tags,
    auth: 'key',
    plan,
    summary: 'Queues the background run (202); on a failed or canceled import it imports the rest',
    method: 'POST',
    path: '/migrations/{id}/start',
    params: idParams,
    status: 202,
    output: importView,
    handler: async (ctx, { params }) => startImport(ctx, params.id),
  }),
  defineOperation({
    operationId: 'cancelImportJob',
    tool: 'cancel_import_job',
    tags,
    auth: 'key',
    summary: 'Stops the run after the current batch',
    method: 'POST',
    path: '/migrations/{id}/cancel',
    params: idParams,
    output: importView,
    handler: async (ctx, { params }) => cancelImport(ctx, params.id),
  }),
  defineOperation({
    operationId: 'getImportReport',
    tool: 'get_import_report',
    tags,
    auth: 'key',
    summary: 'Per-kind results and the products needing a file',
    method: 'GET',
    path: '/migrations/{id}/report',
    params: idParams,
    handler: async (ctx, { params }) => report(ctx, params.id),
  }),
  defineOperation({
    operationId: 'getImportErrors',
    tool: 'get_import_errors',
    tags,
    auth: 'key',
    summary: 'CSV of every row not imported cleanly, with the reason',
    method: 'GET',
    path: '/migrations/{id}/errors.csv',
    params: idParams,
    handler: async (ctx, { params }) =>
      rawReply(200, await errorsCsv(ctx, params.id), 'text/csv; charset=utf-8', {
        'content-disposition': `attachment; filename="import-${params.id}-errors.csv"`,
      }),
  }),
];
