import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { KEY_IS_FREE } from '../store/conditional';
import { ConditionFailed, toRecord, type Store, type TransactOp } from '../store/store';
import { SEGMENT, SEGMENT_COUNT, SEGMENT_SMART_TAG, type SegmentRecord, type SegmentCountRecord } from './records';

// Layout (segments are few per tenant: at most MAX_SEGMENTS, so listing reads one bounded partition):
// - segment:         PK=<scope>#SEGMENT, SK=<segmentId>   (newest first)
// - stored count:    PK=<scope>#SEGMENT_COUNT, SK=<segmentId>  (the count as of an instant, counts.ts;
//                    replaced whole by the recount step, removed with the segment)
// - smart tag guard: PK=<scope>#U#SEGMENT_SMART_TAG, SK=<tag>  (one segment per tag, written in the
//                    segment's transaction with attribute_not_exists)

const segmentKey = (scope: Scope, id: string) => keys.entity(scope, SEGMENT, id);
const countKey = (scope: Scope, id: string) => keys.entity(scope, SEGMENT_COUNT, id);
const smartTagKey = (scope: Scope, tag: string) => keys.unique(scope, SEGMENT_SMART_TAG, tag);
const segmentItem = (scope: Scope, segment: SegmentRecord) => toItem(segmentKey(scope, segment._id), 'Segment', segment);

export async function getSegment(store: Store, scope: Scope, id: string, consistent = false): Promise<SegmentRecord | undefined> {
  return toRecord<SegmentRecord>(await store.get(segmentKey(scope, id), { consistent }));
}

/** Every segment of the tenant and mode, newest first (bounded by MAX_SEGMENTS). */
export async function listSegments(store: Store, scope: Scope): Promise<SegmentRecord[]> {
  const out: SegmentRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query({ pk: keys.collection(scope, SEGMENT), limit: 100, cursor });
    out.push(...page.items.map((i) => toRecord<SegmentRecord>(i)!));
    cursor = page.cursor;
  } while (cursor);
  return out;
}

export const segmentWrites = {
  create: (scope: Scope, segment: SegmentRecord): TransactOp[] => [
    { put: segmentItem(scope, segment), condition: KEY_IS_FREE },
    ...(segment.smartTag ? [claimTag(scope, segment.smartTag, segment._id)] : []),
  ],
  /** Replaces the segment if it was not changed meanwhile; moves the smart tag guard when the tag changes. */
  replace: (scope: Scope, next: SegmentRecord, before: SegmentRecord): TransactOp[] => [
    { put: segmentItem(scope, next), condition: '#u = :u', names: { '#u': 'updatedAt' }, values: { ':u': before.updatedAt } },
    ...(before.smartTag !== next.smartTag
      ? [...(before.smartTag ? [releaseTag(scope, before.smartTag, before._id)] : []), ...(next.smartTag ? [claimTag(scope, next.smartTag, next._id)] : [])]
      : []),
  ],
  delete: (scope: Scope, segment: SegmentRecord): TransactOp[] => [
    { delete: segmentKey(scope, segment._id), condition: '#u = :u', names: { '#u': 'updatedAt' }, values: { ':u': segment.updatedAt } },
    { delete: countKey(scope, segment._id) },
    ...(segment.smartTag ? [releaseTag(scope, segment.smartTag, segment._id)] : []),
  ],
};

const claimTag = (scope: Scope, tag: string, segmentId: string): TransactOp => ({
  put: toItem(smartTagKey(scope, tag), 'SegmentSmartTag', { tag, segmentId }),
  condition: KEY_IS_FREE,
});
const releaseTag = (scope: Scope, tag: string, segmentId: string): TransactOp => ({
  delete: smartTagKey(scope, tag),
  condition: '#s = :s',
  names: { '#s': 'segmentId' },
  values: { ':s': segmentId },
});

export async function smartTagOwner(store: Store, scope: Scope, tag: string): Promise<string | undefined> {
  return (await store.get<{ segmentId: string }>(smartTagKey(scope, tag)))?.segmentId;
}

export async function markRefreshed(store: Store, scope: Scope, id: string, at: string): Promise<void> {
  // A segment deleted while its refresh ran: nothing to mark.
  await store.update(segmentKey(scope, id), { set: { smartTagRefreshedAt: at } }, { mustExist: true }).catch(() => undefined);
}

/**
 * At most one facts rebuild queued by requests per scope every `windowMs`: many counts seeing a
 * rebuild due must not queue many rebuilds. True when this caller should queue it.
 */
export const claimFactsRebuild = (store: Store, scope: Scope, nowMs: number, windowMs: number) =>
  claimOnce(store, scope, 'SEGMENT_FACTS_REBUILD', nowMs, windowMs);
/** The same for the recount of the stored segment counts (counting.ts). */
export const claimRecount = (store: Store, scope: Scope, nowMs: number, windowMs: number) => claimOnce(store, scope, 'SEGMENT_RECOUNT', nowMs, windowMs);

async function claimOnce(store: Store, scope: Scope, what: 'SEGMENT_FACTS_REBUILD' | 'SEGMENT_RECOUNT', nowMs: number, windowMs: number): Promise<boolean> {
  try {
    await store.put(
      {
        ...keys.unique(scope, what, 'next'),
        entity: what === 'SEGMENT_RECOUNT' ? 'SegmentRecount' : 'SegmentFactsRebuild',
        v: 1,
        requestedAtMs: nowMs,
        expiresAt: Math.floor(nowMs / 1000) + 86_400,
      },
      { condition: 'attribute_not_exists(PK) OR requestedAtMs < :cutoff', values: { ':cutoff': nowMs - windowMs } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

export async function getSegmentCount(store: Store, scope: Scope, id: string): Promise<SegmentCountRecord | undefined> {
  return toRecord<SegmentCountRecord>(await store.get(countKey(scope, id)));
}

export async function putSegmentCount(store: Store, scope: Scope, count: SegmentCountRecord): Promise<void> {
  await store.put(toItem(countKey(scope, count.segmentId), 'SegmentCount', count));
}
