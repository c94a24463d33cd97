import type { Scope } from '../store/keys';
import type { IndexName } from '../store/table';
import { afterBound, decodeShardCursor, encodeShardCursor } from '../store/shards';
import { toRecord, type Store } from '../store/store';
import type { ContactRecord } from './records';

/**
 * A send's walk through the subscribed contacts: one write shard of the status index after the
 * other, each in id order, so a batch of N reads N contacts with one query (and one more for each
 * shard it finishes). The merged read (every shard at once, in id order) read each shard's slice of the page
 * twice over to know which items were final, and threw the rest away: 17 queries and about twice
 * the contacts for every batch of a send (docs/performance.md, issue 43).
 *
 * The walk is exact because a contact never changes shard: its shard follows from its id, and a
 * change of status moves it between status partitions of the same shard. The one exception is the
 * partition written before sharding, whose contacts move to their shard when written; a send that
 * starts while that partition holds anyone reads in the merged order instead (its cursor says so),
 * where the id bound keeps a moved contact from being read twice or missed.
 */

const WALK_PREFIX = 'w1.';
const WALK_LIST = 'audience-walk';

export interface WalkPosition {
  /** Index of the shard being read. */
  shard: number;
  /** The last contact id read in it; undefined at the shard's start. */
  after?: string;
}

export const isWalkCursor = (cursor: string | undefined): cursor is string => cursor?.startsWith(WALK_PREFIX) ?? false;

export const encodeWalkCursor = (scope: Scope, position: WalkPosition): string =>
  WALK_PREFIX + encodeShardCursor(scope, `${position.shard}:${position.after ?? ''}`, WALK_LIST)!;

/** The position a walk cursor continues from; one this walk did not make for this tenant is a 400 (decodeShardCursor). */
export function decodeWalkCursor(scope: Scope, cursor: string, shards: number): WalkPosition {
  const text = decodeShardCursor(scope, cursor.slice(WALK_PREFIX.length), WALK_LIST)!;
  const colon = text.indexOf(':');
  const shard = Number(text.slice(0, colon));
  // Only this code writes the cursor (a send stores it on its post). One whose shard does not
  // parse ends the walk: restarting from the first shard would mail everyone again.
  if (!Number.isInteger(shard) || shard < 0) return { shard: shards };
  const after = text.slice(colon + 1);
  return { shard, ...(after ? { after } : {}) };
}

/**
 * Up to `limit` subscribed contacts from `position` on, reading `partitions` (the status index's
 * write shards) in order; the cursor is undefined once the last shard is read to its end.
 */
export async function walkSubscribed(
  store: Store,
  scope: Scope,
  partitions: { index: IndexName; pk: string }[],
  limit: number,
  position: WalkPosition,
): Promise<{ contacts: ContactRecord[]; cursor?: string }> {
  const contacts: ContactRecord[] = [];
  let { shard, after } = position;
  while (shard < partitions.length && contacts.length < limit) {
    const found = await store.query({ ...partitions[shard]!, limit: limit - contacts.length, ascending: true, ...afterBound(after, true) });
    for (const item of found.items) contacts.push(toRecord<ContactRecord>(item)!);
    if (found.cursor === undefined) {
      shard += 1;
      after = undefined;
    } else after = contacts[contacts.length - 1]!._id;
  }
  return { contacts, ...(shard < partitions.length ? { cursor: encodeWalkCursor(scope, { shard, after }) } : {}) };
}
