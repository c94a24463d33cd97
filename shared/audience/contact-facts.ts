import type { Deps } from '../platform/context';
import type { Scope } from '../store/keys';
import * as factsStore from './facts-store';
import {
  concatTables,
  mergeView,
  packTable,
  tableFromRows,
  unpackChunk,
  unpackTableChunk,
  unpackTables,
  viewRows,
  type ContactFactRow,
  type FactsTable,
  type FactsView,
} from './facts';
import { randomHex } from '../platform/ids';
import { changeContact } from './service';

/** Contact facts for segments: a snapshot plus deltas (see shared/segments/README.md). */

export type { ContactFactRow, FactsTable, FactsView } from './facts';
export { rowAt, walkView } from './facts';

/**
 * Deltas read from before the snapshot start: a write stamped just before the rebuild started may
 * commit after the rebuild read its contact (transaction latency, retries, clock skew). Kept short:
 * every delta in the window counts towards the bounds (an import just before a rebuild).
 */
const DELTA_OVERLAP_MS = 30_000;
/** Above this many deltas a rebuild is due (the caller queues one). */
export const FACTS_DELTA_SOFT_LIMIT = 2_000;
/** A request never reads more deltas than this; past it the facts are unavailable until a rebuild. */
export const FACTS_DELTA_HARD_LIMIT = 20_000;

// Decoded snapshots (columns) by table, scope and generation: a generation never changes once its
// head is written, so a warm container reads only the head and the deltas.
const snapshotCache = new Map<string, FactsTable>();
const CACHE_ENTRIES = 2;
const EMPTY = tableFromRows([]);

async function snapshotTable(deps: Deps, scope: Scope, head: factsStore.FactsHead): Promise<FactsTable | undefined> {
  const cacheKey = `${deps.store.tableName}|${scope.accountId}|${scope.mode}|${head.generation}`;
  const hit = snapshotCache.get(cacheKey);
  if (hit) return hit;
  const chunks = await factsStore.getFactsChunks(deps.store, scope, head);
  if (!chunks) return undefined;
  // Snapshots written before F3: F2 (columnar, one gzip per chunk) or gzipped JSON lines.
  const table =
    head.format === 'F3'
      ? unpackTables(chunks)
      : head.format === 'F2'
        ? concatTables(chunks.map(unpackTableChunk))
        : tableFromRows(chunks.flatMap(unpackChunk));
  snapshotCache.set(cacheKey, table);
  while (snapshotCache.size > CACHE_ENTRIES) snapshotCache.delete(snapshotCache.keys().next().value!);
  return table;
}

/** Drops the decoded snapshots (a bench measures a cold container's first count with it). */
export function forgetDecodedSnapshots(): void {
  snapshotCache.clear();
}

export interface ContactFacts {
  /** Subscribed contacts' facts: the snapshot's columns with the deltas on top (see facts/view.ts `FactsView`). */
  view: FactsView;
  /** The same as rows, oldest contact first (built on demand: tests and the nightly rebuild). */
  readonly rows: ContactFactRow[];
  /** Deltas merged on top of the snapshot. */
  deltas: number;
  /** False when the deltas passed the hard limit: the view is empty and must not be used. */
  complete: boolean;
  /** True when a rebuild is due (no snapshot yet, or many deltas): the caller queues one. */
  rebuildDue: boolean;
  snapshotAt: string | null;
  /** When the snapshot's rebuild had read all it holds ('' when there is no snapshot, null when its rebuild did not record it). */
  snapshotFinishedAt: string | null;
}

/**
 * The contact changes written at or after `since`, oldest first, at most about `max` (`more` when
 * cut short): what moves a saved segment's stored count (shared/segments/counts.ts).
 */
export const factChangesSince = (deps: Deps, scope: Scope, since: string, max: number) => factsStore.factDeltasSince(deps.store, scope, since, max);

/**
 * The facts of every subscribed contact: the snapshot's chunks (read in parallel, decoded into
 * columns, cached by generation) with the deltas written since its rebuild started merged on top.
 * Bounded: the snapshot by design, the deltas by FACTS_DELTA_HARD_LIMIT.
 */
export async function contactFacts(deps: Deps, scope: Scope, options: { until?: string } = {}): Promise<ContactFacts> {
  for (let attempt = 1; ; attempt++) {
    const head = await factsStore.getFactsHead(deps.store, scope);
    const since = head ? new Date(Date.parse(head.startedAt) - DELTA_OVERLAP_MS).toISOString() : '0';
    const [snapshot, all] = await Promise.all([
      head ? snapshotTable(deps, scope, head) : Promise.resolve(EMPTY),
      factsStore.factDeltasSince(deps.store, scope, since, FACTS_DELTA_HARD_LIMIT),
    ]);
    // `until`: the facts as of that instant (a stored segment count), the deltas written later left out.
    const until = options.until;
    const read = until ? { ...all, deltas: all.deltas.filter((d) => d.stamp < until) } : all;
    // A newer rebuild removed this generation's chunks between the two reads: read the new head.
    if (!snapshot) {
      if (attempt < 3) continue;
      throw new Error('contact facts snapshot vanished three times in a row');
    }
    const view = mergeView(read.more ? EMPTY : snapshot, read.more ? [] : read.deltas);
    let rows: ContactFactRow[] | undefined;
    return {
      view,
      get rows() {
        rows ??= viewRows(view);
        return rows;
      },
      deltas: read.deltas.length,
      complete: !read.more,
      // A week-old snapshot too: its deltas are kept 8 days (a scope without saved segments is
      // rebuilt weekly, so a missed night leaves a day's margin; a reader past it queues one).
      rebuildDue: !head || read.more || read.deltas.length > FACTS_DELTA_SOFT_LIMIT || deps.clock.nowMs() - Date.parse(head.startedAt) >= FULL_EVERY_MS,
      snapshotAt: head?.startedAt ?? null,
      snapshotFinishedAt: head ? (head.finishedAt ?? null) : '',
    };
  }
}

/** A compacting rebuild needs every delta since the previous snapshot: well inside their TTL (8 days). */
const COMPACT_WITHIN_MS = 6 * 86_400_000;
/** A full rebuild from the contacts at least this often reconciles the snapshot with the records. */
const FULL_EVERY_MS = 7 * 86_400_000;

/**
 * What the nightly job does with a scope's facts:
 * - `reconcile`: the weekly full read from the contacts (the last one is FULL_EVERY_MS old, or
 *   there is no snapshot), with the purchase totals checked against the sales;
 * - `compact`: a scope with saved segments whose contacts were written since the last rebuild
 *   (every write records a delta): the snapshot takes their deltas in, reading no contact;
 * - `skip`: nothing written since, so a rebuild would write the very snapshot already there; or
 *   no saved segment: no count or smart tag reads the snapshot every day, and the deltas (kept 8
 *   days) carry the week to the next full read. A preview reads the snapshot with them and queues
 *   a rebuild past 5,000. Such a scope (most accounts' live or test mode, every idle account)
 *   costs one read a night; an empty one a query per delta shard a week, no full read.
 */
export async function nightlyFactsPlan(deps: Deps, scope: Scope, options: { segments: boolean }): Promise<'reconcile' | 'compact' | 'skip'> {
  const probedAt = deps.clock.now().toISOString();
  const head = await factsStore.getFactsHead(deps.store, scope);
  const reconcileDue = !head?.fullAt || deps.clock.nowMs() - Date.parse(head.fullAt) >= FULL_EVERY_MS;
  if (!head || (reconcileDue && head.count !== 0)) return 'reconcile';
  if (!reconcileDue && !options.segments) return 'skip';
  const changed = await factsStore.anyFactDeltaSince(deps.store, scope, new Date(Date.parse(head.startedAt) - DELTA_OVERLAP_MS).toISOString());
  if (reconcileDue && !changed) {
    // An empty snapshot and no contact written since (from before the probe: readers read the
    // deltas after it): a full read would find none. The head says so, with no snapshot written.
    await factsStore.putFactsHead(deps.store, scope, { ...head, startedAt: probedAt, fullAt: probedAt, finishedAt: probedAt });
    return 'skip';
  }
  return reconcileDue ? 'reconcile' : changed ? 'compact' : 'skip';
}

/**
 * Rebuilds the facts snapshot, switches readers to it and removes the previous one. Usually a
 * compaction: the previous snapshot with the deltas since merged in (every contact write records
 * its delta in the same transaction, so they are the whole state), no contact read. From the
 * contacts themselves (the subscribed contacts, paged, 8 id ranges in parallel) when there is no
 * snapshot, it is older than COMPACT_WITHIN_MS, the deltas passed the hard limit, the last full
 * read is FULL_EVERY_MS old, or `full` is asked. `correct` may give a contact a new purchase
 * total on the way (the weekly reconciliation with the sales); it is written through the normal
 * versioned path, whose delta carries the new value on top of this snapshot.
 */
const REBUILD_READERS = 8;
/** Contacts a full read takes as one range: a few pages of the status index's shards. */
const SMALL_SCOPE_CONTACTS = 10_000;

export async function rebuildContactFacts(
  deps: Deps,
  scope: Scope,
  options: { correct?: (row: Pick<ContactFactRow, '_id' | 'email' | 'totalSpentCents'>) => number | undefined; full?: boolean } = {},
): Promise<{ count: number; chunks: number; corrected: number; full: boolean }> {
  const startedAt = deps.clock.now().toISOString();
  const nowMs = deps.clock.nowMs();
  const generation = `${startedAt.replace(/[^0-9]/g, '')}${randomHex(4)}`;
  const previous = await factsStore.getFactsHead(deps.store, scope);
  let rows: ContactFactRow[] | undefined;
  let fullAt = previous?.fullAt;
  if (
    !options.full &&
    (previous?.format === 'F2' || previous?.format === 'F3') &&
    previous.fullAt &&
    nowMs - Date.parse(previous.startedAt) < COMPACT_WITHIN_MS &&
    nowMs - Date.parse(previous.fullAt) < FULL_EVERY_MS
  ) {
    const facts = await contactFacts(deps, scope);
    if (facts.complete) rows = facts.rows;
  }
  const full = !rows;
  if (!rows) {
    fullAt = startedAt;
    // The id space in ranges read in parallel, each page by page; concatenated in range order. Each
    // range queries every shard of the status index, so a scope that held a few pages at its last
    // rebuild is read as one range (a small scope's weekly read: 17 queries instead of 170).
    const small = previous && previous.count <= SMALL_SCOPE_CONTACTS;
    const ranges = small ? [factsStore.WHOLE_ID_RANGE] : await factsStore.subscribedIdRanges(deps.store, scope, REBUILD_READERS);
    const parts = await Promise.all(
      ranges.map(async (range) => {
        const out: ContactFactRow[] = [];
        let cursor: string | undefined;
        do {
          const page = await factsStore.subscribedFactsPage(deps.store, scope, range, cursor);
          out.push(...page.rows);
          cursor = page.cursor;
        } while (cursor);
        return out;
      }),
    );
    rows = parts.flat();
  }
  const corrections: { id: string; total: number }[] = [];
  if (options.correct) {
    for (const row of rows) {
      const total = options.correct(row);
      if (total !== undefined && total !== row.totalSpentCents) corrections.push({ id: row._id, total });
    }
  }
  let corrected = 0;
  for (let i = 0; i < corrections.length; i += 16) {
    const done = await Promise.all(
      corrections.slice(i, i + 16).map(({ id, total }) =>
        changeContact(deps, scope, id, (current, now) =>
          current.totalSpentCents === total ? undefined : { ...current, totalSpentCents: total, updatedAt: now },
        ).then(
          () => 1,
          () => 0,
        ),
      ),
    );
    corrected += done.reduce<number>((a, b) => a + b, 0);
  }
  // Every write stamped after this is outside the snapshot: what a stored segment count waits for.
  const finishedAt = deps.clock.now().toISOString();
  const chunks = packTable(rows);
  for (let i = 0; i < chunks.length; i += 8)
    await Promise.all(chunks.slice(i, i + 8).map((data, j) => factsStore.putFactsChunk(deps.store, scope, generation, i + j, data)));
  const head: factsStore.FactsHead = { generation, chunks: chunks.length, count: rows.length, startedAt, format: 'F3', fullAt, finishedAt };
  if (await factsStore.putFactsHead(deps.store, scope, head)) {
    if (previous && previous.generation !== generation) await factsStore.deleteFactsChunks(deps.store, scope, previous);
  } else await factsStore.deleteFactsChunks(deps.store, scope, head);
  return { count: rows.length, chunks: chunks.length, corrected, full };
}
