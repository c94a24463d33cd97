import { stringify } from 'csv-stringify/sync';
import { KINDS } from './platforms';
import * as repo from './repository';
import { type ImportsCtx, progressOf, requireImport, requireStored } from './service';
import { checkFileRow } from './row-states';

export async function report(ctx: ImportsCtx, id: string) {
  const record = await requireImport(ctx, ctx.scope, id);
  const fileNeeded: { row: number; productId: string | null; reason: string }[] = [];
  const filesAttached: { row: number; productId: string | null; filename: string; size: number; contentType: string }[] = [];
  if (record.files.products) {
    for await (const rows of repo.eachRow(ctx.store, ctx.scope, id, 'products')) {
      for (const row of rows) {
        if (row.reason?.startsWith('fileNeeded')) fileNeeded.push({ row: row.n, productId: row.ref ?? null, reason: row.reason });
        if (row.file)
          filesAttached.push({ row: row.n, productId: row.ref ?? null, filename: row.file.filename, size: row.file.size, contentType: row.file.contentType });
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
