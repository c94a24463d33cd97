import { contactFacts, factChangesSince, FACTS_DELTA_SOFT_LIMIT } from '../audience/contact-facts';
import type { Deps } from '../platform/context';
import { notFound } from '../platform/errors';
import type { Scope } from '../store/keys';
import { countAt, countNow, COUNT_HORIZON_MS } from './counts';
import type { SegmentRecord } from './records';
import * as repo from './repository';
import { evaluate, queueRefresh, type Evaluation } from './service';

/**
 * Counts of saved segments from their stored counts (counts.ts): one item, plus the contact
 * changes written since it was taken, instead of the whole facts snapshot. The recount step
 * (nightly, and whenever a count finds its stored count missing, old or unusable) takes them anew.
 */

/**
 * How far behind now a stored count is taken: every write stamped before it has committed by then
 * (contact-facts' deltas assume a write commits within 30 s of its stamp).
 */
export const COUNT_LAG_MS = 60_000;
/** A stored count older than this, or with more changes since, is taken anew (the answer stays exact meanwhile). */
const RECOUNT_AFTER_MS = 6 * 3_600_000;
const RECOUNT_AFTER_CHANGES = 500;
/** One recount queued by requests per scope in this window. */
const RECOUNT_WINDOW_MS = 60_000;

export async function countSegment(deps: Deps, scope: Scope, id: string): Promise<{ segment: SegmentRecord; evaluation: Omit<Evaluation, 'sample'> }> {
  const [segment, stored] = await Promise.all([repo.getSegment(deps.store, scope, id), repo.getSegmentCount(deps.store, scope, id)]);
  if (!segment) throw notFound('Segment');
  const nowMs = deps.clock.nowMs();
  const computedAt = deps.clock.now().toISOString();
  if (stored && stored.version === segment.updatedAt && nowMs - Date.parse(stored.at) <= COUNT_HORIZON_MS) {
    const changes = await factChangesSince(deps, scope, stored.at, FACTS_DELTA_SOFT_LIMIT);
    const moved = changes.more ? undefined : countNow(stored, changes.deltas, segment.definition, nowMs);
    if (moved) {
      if (nowMs - Date.parse(stored.at) > RECOUNT_AFTER_MS || changes.deltas.length > RECOUNT_AFTER_CHANGES) await requestRecount(deps, scope);
      return { segment, evaluation: { count: moved.count, scanned: moved.subscribed, complete: true, computedAt } };
    }
  }
  const { sample: _sample, ...evaluation } = await evaluate(deps, scope, segment.definition);
  await requestRecount(deps, scope);
  return { segment, evaluation };
}

async function requestRecount(deps: Deps, scope: Scope) {
  if (await repo.claimRecount(deps.store, scope, deps.clock.nowMs(), RECOUNT_WINDOW_MS)) await queueRefresh(deps, scope, { counts: true });
}

/**
 * Stores every saved segment's count as of COUNT_LAG_MS ago: the snapshot with the deltas written
 * before that instant. Not while the snapshot holds writes after it (a rebuild that just finished:
 * the next count asks again) or is missing or incomplete (a rebuild is due and queued by readers).
 * Answers how many counts it stored.
 */
export async function recountSegments(deps: Deps, scope: Scope): Promise<number> {
  const segments = await repo.listSegments(deps.store, scope);
  if (!segments.length) return 0;
  const atMs = deps.clock.nowMs() - COUNT_LAG_MS;
  const at = new Date(atMs).toISOString();
  const facts = await contactFacts(deps, scope, { until: at });
  if (!facts.complete || !facts.snapshotFinishedAt || facts.snapshotFinishedAt > at) return 0;
  let stored = 0;
  for (const segment of segments) {
    const count = countAt(facts.view, segment.definition, atMs);
    if (!count) continue; // too many flips to keep: counts of this segment read the snapshot
    await repo.putSegmentCount(deps.store, scope, { segmentId: segment._id, version: segment.updatedAt, at, ...count });
    stored++;
  }
  return stored;
}
