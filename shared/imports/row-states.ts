import { createHash } from 'node:crypto';
import { contactIdsByEmail } from '../audience/bulk';
import type { ImportRecord, RowRecord, RowState } from './records';
import { checkRow, mappingProblems, type Checked } from './rules';
import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';

/** A stored row checked against its file's header and mapping (the rules see no records). */
export const checkFileRow = (record: ImportRecord, row: RowRecord): Checked => {
  const file = record.files[row.kind]!;
  const problems = mappingProblems(row.kind, file.mapping, file.header);
  if (problems.length) return { ok: false, reason: `mapping: ${problems.join('; ')}` };
  return checkRow(row.kind, file.header, row.raw, file.mapping, { source: record.source, filename: file.filename });
};

/**
 * The contact id a subscriber row gets: fixed by the import and the row, so a batch redone after a
 * crash recognises the contacts it created itself (created, not existing) and never makes two.
 * The import's creation second leads, as in every object id.
 */
export const rowContactId = (importId: string, sk: string) =>
  importId.slice(0, 8) + createHash('sha256').update(`${importId}:${sk}`).digest('hex').slice(0, 16);

/**
 * The state of subscriber rows the run has passed (at or before the cursor) that carry no marker:
 * `created` when the address is held by the contact id derived from the row, otherwise
 * `existing` (another contact had it). One BatchGetItem of the email claims for the page.
 */
export async function subscriberRowStates(
  ctx: Deps & { scope: Scope },
  record: ImportRecord,
  rows: RowRecord[],
): Promise<Map<string, { state: RowState; ref: string | null }>> {
  const passed = rows.flatMap((row) => {
    if (row.kind !== 'subscribers' || row.state !== 'pending' || !record.cursor || row.sk > record.cursor) return [];
    const checked = checkFileRow(record, row);
    return checked.ok && checked.row.kind === 'subscribers' ? [{ row, email: checked.row.email }] : [];
  });
  if (!passed.length) return new Map();
  const holders = await contactIdsByEmail(
    ctx,
    ctx.scope,
    passed.map((p) => p.email),
  );
  return new Map(
    passed.map(({ row, email }) => {
      const holder = holders.get(email) ?? null;
      return [row.sk, { state: holder === rowContactId(record._id, row.sk) ? 'created' : 'existing', ref: holder }];
    }),
  );
}
