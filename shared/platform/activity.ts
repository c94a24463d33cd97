import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from './clock';
import { badRequest } from './errors';
import { objectId } from './ids';
import type { Actor } from './permissions';
import { keys, type Scope } from '../store/keys';
import { toItem } from '../store/items';
import { toRecord, withoutWriteCompanion, withWriteCompanion, type Store, type TransactOp } from '../store/store';

/**
 * The activity log of a store (per account and mode): every write made through the API and every
 * team change, with who did it, what, on what, and when. The kernel owns it like the outbox: an
 * API write's entry is added to the request's first transaction (so it commits with the change it
 * records; see WriteCompanion in store.ts); a write made without a transaction gets its entry
 * right after the operation succeeds. A capability describes its own change more precisely with
 * `activityWrite` in its transaction (the team does), which replaces the generic entry.
 */
export interface ActivityActor {
  type: 'owner_key' | 'member' | 'system';
  memberId?: string;
  email?: string;
}

export interface ActivityEntry {
  _id: string;
  at: string;
  actor: ActivityActor;
  /** `invite.created`, `member.updated`... or the operationId of a generic API write. */
  action: string;
  target: { type: string; id?: string; email?: string };
  details?: Record<string, unknown>;
}

const ACTIVITY = 'ACTIVITY';
const RETENTION_SECONDS = 365 * 24 * 3600;

export const actorOf = (actor: Actor): ActivityActor =>
  actor.type === 'owner_key' ? { type: 'owner_key' } : { type: 'member', memberId: actor.memberId, email: actor.email };

function entryPut(scope: Scope, clock: Clock, entry: Omit<ActivityEntry, '_id' | 'at'>): TransactOp {
  const record: ActivityEntry = { _id: objectId(clock), at: clock.now().toISOString(), ...entry };
  return {
    put: toItem(keys.entity(scope, ACTIVITY, record._id), 'Activity', record, { expiresAt: Math.floor(clock.nowMs() / 1000) + RETENTION_SECONDS }),
    condition: 'attribute_not_exists(PK)',
  };
}

interface Recording {
  scope: Scope;
  clock: Clock;
  actor: ActivityActor;
  generic: Omit<ActivityEntry, '_id' | 'at' | 'actor'>;
  op?: TransactOp;
  committed: boolean;
  wrote: boolean;
  /** A capability wrote its own entry: no generic one. */
  described: boolean;
  open: boolean;
}

const recordings = new AsyncLocalStorage<Recording>();

/**
 * The entry of a change, for the capability's own transaction. Inside an API request the actor is
 * the request's; elsewhere (a public page, a timer) the caller names it.
 */
export function activityWrite(scope: Scope, clock: Clock, entry: Omit<ActivityEntry, '_id' | 'at' | 'actor'> & { actor?: ActivityActor }): TransactOp {
  const recording = recordings.getStore();
  if (recording) recording.described = true;
  return entryPut(scope, clock, { ...entry, actor: entry.actor ?? recording?.actor ?? { type: 'system' } });
}

/** Runs one API write, recording it in the activity log (see the module comment). */
/**
 * For a high-volume write whose own item is its log (a usage report: up to 300 a minute per
 * subscriber, listed by its own read): the item stores the actor this returns, and the request's
 * generic activity entry is skipped, so the write stays one item. Undefined outside a recording.
 */
export function activityInOwnRecord(): ActivityActor | undefined {
  const recording = recordings.getStore();
  if (!recording) return undefined;
  recording.described = true;
  return recording.actor;
}

export async function recordActivity<T>(
  deps: { store: Store; clock: Clock },
  scope: Scope,
  actor: Actor,
  generic: Omit<ActivityEntry, '_id' | 'at' | 'actor'>,
  run: () => Promise<T>,
): Promise<T> {
  const recording: Recording = { scope, clock: deps.clock, actor: actorOf(actor), generic, committed: false, wrote: false, described: false, open: true };
  const companion = {
    pending: () => {
      if (!recording.open || recording.committed || recording.described) return [];
      recording.op ??= entryPut(scope, deps.clock, { ...generic, actor: recording.actor });
      return [recording.op];
    },
    committed: () => {
      recording.committed = true;
    },
    wrote: () => {
      recording.wrote = true;
    },
  };
  const result = await recordings.run(recording, () => withWriteCompanion(companion, run));
  recording.open = false;
  if (recording.wrote && !recording.committed && !recording.described) {
    await withoutWriteCompanion(() => deps.store.transact([entryPut(scope, deps.clock, { ...generic, actor: recording.actor })]));
  }
  return result;
}

/**
 * One page of the log, newest first. `before` is an entry id (the last one of the previous page)
 * or an ISO time: entries strictly older are listed.
 */
export async function listActivity(store: Store, scope: Scope, options: { before?: string; limit: number }): Promise<{ entries: ActivityEntry[]; nextBefore: string | null }> {
  let before: string | undefined;
  if (options.before) {
    if (/^[0-9a-f]{24}$/.test(options.before)) before = options.before;
    else {
      const ms = Date.parse(options.before);
      if (Number.isNaN(ms)) throw badRequest('before: an activity id or an ISO 8601 time', { field: 'before' });
      // Ids start with the creation second in hex: every id of an earlier second sorts below.
      before = Math.floor(ms / 1000).toString(16).padStart(8, '0');
    }
  }
  const page = await store.query({ pk: keys.collection(scope, ACTIVITY), before, limit: options.limit });
  const entries = page.items.map((item) => toRecord<ActivityEntry>(item)!);
  return { entries, nextBefore: page.cursor && entries.length ? entries[entries.length - 1]!._id : null };
}
