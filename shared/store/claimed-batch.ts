import type { Key } from './keys';
import { toItem } from './items';
import { ConditionFailed, toRecord, type Item, type Store } from './store';

/**
 * At most once per recipient, for sends in batches through a queue (newsletters, member
 * notifications). A batch's recipients are fixed in a marker item when first read; before each
 * chunk goes to the mail provider the marker's `claimed` count is raised past it, conditionally on
 * the value read, so two workers never hand over the same chunk and a worker that dies leaves the
 * marker saying where to resume. A chunk cut short by a crash is not sent again: its recipients
 * may go without this mail, never get it twice. One conditional write per chunk, not per recipient.
 *
 * The count lives in an item of its own beside the marker (`claimKey`), so each raise writes a
 * few dozen bytes, not the marker's list of addresses again: a batch of 200 cost 5 writes of its
 * ~6 KiB marker (30 write units, and DynamoDB Local's CPU to rewrite them), now one and 4 small
 * ones. A marker written before the split, whose claim item does not exist, holds its own count
 * and is read as it was; the first raise creates the claim item from it.
 */
export interface ClaimedBatch {
  /** The batch's recipients in send order. */
  recipients: string[];
  /** Where the audience continues after this batch; null when it is the last. */
  nextCursor: string | null;
  /** The first `claimed` recipients were handed to the provider (or were in a chunk a crash cut short). */
  claimed: number;
  /** Recipients the provider accepted, as of the last claim. */
  accepted: number;
  failed: { to: string; error: string }[];
}

export interface ChunkResult {
  accepted: string[];
  failed: { to: string; error: string }[];
}

/** Where a marker's claim count is kept: the marker's key in a partition of claims beside the markers'. */
export const claimKey = (key: Key): Key => ({ PK: `${key.PK}#CLAIM`, SK: key.SK });

/** Markers a query read, each with its claim state (support and tests: who got which batch). */
export async function withClaims(store: Store, items: Item[]): Promise<ClaimedBatch[]> {
  const markerKeys = items.map((item) => ({ PK: item.PK as string, SK: item.SK as string }));
  const claims = new Map((await store.batchGet(markerKeys.map(claimKey))).map((claim) => [claim.SK as string, toRecord<ClaimState>(claim)]));
  return items.map((item, i) => withClaim(toRecord<ClaimedBatch>(item), claims.get(markerKeys[i]!.SK))!);
}

type ClaimState = Pick<ClaimedBatch, 'claimed' | 'accepted' | 'failed'>;

export async function readClaimedBatch(store: Store, key: Key): Promise<ClaimedBatch | undefined> {
  const [marker, claim] = await Promise.all([store.get(key, { consistent: true }), store.get(claimKey(key), { consistent: true })]);
  return withClaim(toRecord<ClaimedBatch>(marker), toRecord<ClaimState>(claim));
}

/** A marker with its claim state: the claim item's when there is one, else the marker's own (a new marker, or one written before the split). */
export function withClaim(marker: ClaimedBatch | undefined, claim: ClaimState | undefined): ClaimedBatch | undefined {
  if (!marker) return undefined;
  return claim ? { ...marker, claimed: claim.claimed, accepted: claim.accepted, failed: claim.failed } : marker;
}

/** Fixes a batch's recipients; answers the marker that won when another worker fixed it first. */
export async function fixClaimedBatch(
  store: Store,
  key: Key,
  entity: string,
  batch: { recipients: string[]; nextCursor: string | null },
): Promise<ClaimedBatch> {
  const marker: ClaimedBatch = { ...batch, claimed: 0, accepted: 0, failed: [] };
  try {
    await store.put(toItem(key, entity, { ...marker }), { ifNotExists: true });
    return marker;
  } catch (error) {
    if (!(error instanceof ConditionFailed)) throw error;
    return (await readClaimedBatch(store, key))!;
  }
}

async function moveClaim(store: Store, key: Key, from: number, to: number, results: { accepted: number; failed: ClaimedBatch['failed'] }): Promise<boolean> {
  try {
    // No claim item yet means the count is the marker's own, which the caller read as `from`.
    await store.update(
      claimKey(key),
      { set: { entity: 'BatchClaim', claimed: to, accepted: results.accepted, failed: results.failed } },
      { condition: 'attribute_not_exists(#claimed) OR #claimed = :from', names: { '#claimed': 'claimed' }, values: { ':from': from } },
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionFailed) return false;
    throw error;
  }
}

/**
 * Sends the unclaimed rest of a batch in chunks of `chunkSize`, claiming each chunk first.
 * Answers the batch's totals, or `taken` when another worker moved the claim meanwhile. When
 * `send` throws (the provider refused the whole call) the chunk's claim goes back and the error
 * is rethrown, so the queue retries the batch from that chunk.
 */
export async function sendClaimedChunks(
  store: Store,
  key: Key,
  marker: ClaimedBatch,
  chunkSize: number,
  send: (chunk: string[]) => Promise<ChunkResult>,
): Promise<{ taken: true } | { taken: false; accepted: number; failed: ClaimedBatch['failed'] }> {
  let { claimed, accepted } = marker;
  const failed = [...marker.failed];
  while (claimed < marker.recipients.length) {
    const chunk = marker.recipients.slice(claimed, claimed + chunkSize);
    if (!(await moveClaim(store, key, claimed, claimed + chunk.length, { accepted, failed }))) return { taken: true };
    let result: ChunkResult;
    try {
      result = await send(chunk);
    } catch (error) {
      await moveClaim(store, key, claimed + chunk.length, claimed, { accepted, failed });
      throw error;
    }
    claimed += chunk.length;
    accepted += result.accepted.length;
    failed.push(...result.failed);
  }
  // Failures are kept on the marker for support; the count rides on the caller's commit.
  if (failed.length !== marker.failed.length) await moveClaim(store, key, claimed, claimed, { accepted, failed });
  return { taken: false, accepted, failed };
}
