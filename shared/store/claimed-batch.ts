import type { Key } from './keys';
import { toItem } from './items';
import { ConditionFailed, toRecord, type Store } from './store';

/**
 * At most once per recipient, for sends in batches through a queue (newsletters, member
 * notifications). A batch's recipients are fixed in a marker item when first read; before each
 * chunk goes to the mail provider the marker's `claimed` count is raised past it, conditionally on
 * the value read, so two workers never hand over the same chunk and a worker that dies leaves the
 * marker saying where to resume. A chunk cut short by a crash is not sent again: its recipients
 * may go without this mail, never get it twice. One conditional write per chunk, not per recipient.
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

export async function readClaimedBatch(store: Store, key: Key): Promise<ClaimedBatch | undefined> {
  return toRecord<ClaimedBatch>(await store.get(key, { consistent: true }));
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
    await store.update(
      key,
      { set: { claimed: to, accepted: results.accepted, failed: results.failed } },
      { condition: '#claimed = :from', names: { '#claimed': 'claimed' }, values: { ':from': from } },
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
