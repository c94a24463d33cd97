import { applyPartial, maxTime, type ContactFactRow, type FactDelta } from './rows';
import { indexOfId, rowAt, type FactsTable } from './table';

/**
 * The snapshot with the deltas on top, without copying the snapshot: `hidden[i]` marks snapshot
 * entries a delta replaced or removed, `extra` holds the current rows of those contacts and of new
 * ones (subscribed only, sorted by id). Same semantics as `mergeFacts`.
 */
export interface FactsView {
  table: FactsTable;
  hidden: Uint8Array;
  extra: ContactFactRow[];
  /** Subscribed contacts in the view. */
  size: number;
}

export function mergeView(table: FactsTable, deltas: FactDelta[]): FactsView {
  const hidden = new Uint8Array(table.size);
  let visible = 0;
  for (let i = 0; i < table.size; i++) {
    if (table.status[i] !== 0) hidden[i] = 1;
    else visible++;
  }
  if (!deltas.length) return { table, hidden, extra: [], size: visible };
  const changed = new Map<string, ContactFactRow | null>();
  const current = (id: string): ContactFactRow | null | undefined => {
    if (changed.has(id)) return changed.get(id);
    const i = indexOfId(table, id);
    return i >= 0 && table.status[i] === 0 ? rowAt(table, i) : undefined;
  };
  for (const delta of deltas) {
    if (delta.kind === 'row') {
      const before = current(delta.row._id);
      changed.set(
        delta.row._id,
        before
          ? { ...delta.row, lastOpenAt: maxTime(before.lastOpenAt, delta.row.lastOpenAt), lastClickAt: maxTime(before.lastClickAt, delta.row.lastClickAt) }
          : delta.row,
      );
    } else if (delta.kind === 'gone') changed.set(delta.id, null);
    else {
      const before = current(delta.id);
      if (!before) continue;
      changed.set(delta.id, applyPartial(before, delta));
    }
  }
  const extra: ContactFactRow[] = [];
  for (const [id, row] of changed) {
    const i = indexOfId(table, id);
    if (i >= 0 && !hidden[i]) {
      hidden[i] = 1;
      visible--;
    }
    if (row && row.status === 'subscribed') extra.push(row);
  }
  extra.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return { table, hidden, extra, size: visible + extra.length };
}

/**
 * Walks the view in id order from just after `after`: `fn` gets a snapshot index or a delta row
 * and returns false to stop.
 */
export function walkView(
  view: FactsView,
  after: string | undefined,
  fn: (at: { index: number; row?: undefined } | { index: -1; row: ContactFactRow }) => boolean,
): void {
  const { table, hidden, extra } = view;
  let i = 0;
  let j = 0;
  if (after) {
    let lo = 0;
    let hi = table.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (table.ids[mid]! <= after) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
    while (j < extra.length && extra[j]!._id <= after) j++;
  }
  for (;;) {
    while (i < table.size && hidden[i]) i++;
    const fromTable = i < table.size;
    const fromExtra = j < extra.length;
    if (!fromTable && !fromExtra) return;
    if (fromTable && (!fromExtra || table.ids[i]! < extra[j]!._id)) {
      if (!fn({ index: i++ })) return;
    } else if (!fn({ index: -1, row: extra[j++]! })) return;
  }
}

/** Every subscribed row of the view, in id order (the nightly rebuild and tests; a count never does this). */
export function viewRows(view: FactsView): ContactFactRow[] {
  const out: ContactFactRow[] = [];
  walkView(view, undefined, (at) => {
    out.push(at.row ?? rowAt(view.table, at.index));
    return true;
  });
  return out;
}
