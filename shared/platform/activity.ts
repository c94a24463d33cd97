import type { Clock } from './clock';
import { badRequest } from './errors';
import { objectId } from './ids';
import { OUTBOX_ENTITY } from './events';
import type { Actor } from './permissions';
import { keys, type Scope } from '../store/keys';
import { afterBound, mergeShards, queryRead } from '../store/shards';
import { toItem } from '../store/items';
import { toRecord, type Store, type TransactOp } from '../store/store';

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
  /** The API key an owner_key write came through (none for an owner's session token). */
  keyId?: string;
  /** The service's own operators, through a staff session minted by the admin CLI. */
  staff?: true;
}

export interface ActivityEntry {
  _id: string;
  at: string;
  actor: ActivityActor;
  /** `invite.created`, `member.updated`... or the operationId of a generic API write. */
  action: string;
  target: { type: string; id?: string; email?: string };
  details?: Record<string, unknown>;
  /** The caller's address, for writes made through the API. */
  ip?: string;
}

const ACTIVITY = 'ACTIVITY';
/**
 * An entry is written with every API write (a launch: one per checkout), so the log is write-sharded
 * by entry id (store/shards.ts); reads merge the shards and the partition earlier releases wrote.
 */
const activityKey = (scope: Scope, id: string) => keys.sharded(scope, ACTIVITY, id);
const activityPartitions = (scope: Scope) => [...keys.shards(scope, ACTIVITY), keys.collection(scope, ACTIVITY)];
/** Kept 400 days (DynamoDB TTL): a year of books plus the month a seller takes to look back. */
export const ACTIVITY_RETENTION_SECONDS = 400 * 24 * 3600;

export const actorOf = (actor: Actor): ActivityActor =>
  actor.type === 'owner_key'
    ? { type: 'owner_key', ...(actor.keyId ? { keyId: actor.keyId } : {}), ...(actor.staff ? { staff: true as const } : {}) }
    : { type: 'member', memberId: actor.memberId, email: actor.email };

function entryPut(scope: Scope, clock: Clock, entry: Omit<ActivityEntry, '_id' | 'at'>): TransactOp {
  const record: ActivityEntry = { _id: objectId(clock), at: clock.now().toISOString(), ...entry };
  return {
    put: toItem(activityKey(scope, record._id), 'Activity', record, { expiresAt: Math.floor(clock.nowMs() / 1000) + ACTIVITY_RETENTION_SECONDS }),
    condition: 'attribute_not_exists(PK)',
  };
}

/**
 * The recording of one API write, carried by the request's context (`ctx.activity`) and its view
 * of the store (the write companion), not by AsyncLocalStorage (see WriteCompanion in store.ts).
 */
export interface ActivityRecording {
  scope: Scope;
  clock: Clock;
  actor: ActivityActor;
  ip?: string;
  generic: Omit<ActivityEntry, '_id' | 'at' | 'actor'>;
  op?: TransactOp;
  committed: boolean;
  wrote: boolean;
  /** A capability wrote its own entry: no generic one. */
  described: boolean;
  open: boolean;
}

/**
 * The entry of a change, for the capability's own transaction. Inside an API request the actor is
 * the request's; elsewhere (a public page, a timer) the caller names it.
 */
export function activityWrite(
  ctx: { clock: Clock; activity?: ActivityRecording },
  scope: Scope,
  entry: Omit<ActivityEntry, '_id' | 'at' | 'actor'> & { actor?: ActivityActor },
): TransactOp {
  const recording = ctx.activity;
  if (recording) recording.described = true;
  const ip = recording?.ip ? { ip: recording.ip } : {};
  return entryPut(scope, ctx.clock, { ...ip, ...entry, actor: entry.actor ?? recording?.actor ?? { type: 'system' } });
}

/**
 * For a high-volume write whose own item is its log (a usage report: up to 300 a minute per
 * subscriber, listed by its own read): the item stores the actor this returns, and the request's
 * generic activity entry is skipped, so the write stays one item. Undefined outside a recording.
 */
export function activityInOwnRecord(ctx: { activity?: ActivityRecording }): ActivityActor | undefined {
  const recording = ctx.activity;
  if (!recording) return undefined;
  recording.described = true;
  return recording.actor;
}

/**
 * The record a create made, for an entry whose path names none (`POST /products`): the first new
 * item of the transaction that has an `_id`, which is how every repository writes a record.
 */
function createdId(ops: TransactOp[]): string | undefined {
  for (const op of ops) {
    if ('put' in op && typeof op.put._id === 'string' && op.put.entity !== OUTBOX_ENTITY) return op.put._id;
  }
  return undefined;
}

function answerId(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { _id, id } = result as { _id?: unknown; id?: unknown };
  return typeof _id === 'string' ? _id : typeof id === 'string' ? id : undefined;
}

/**
 * Runs one API write, recording it in the activity log (see the module comment): `run` gets the
 * request's context with the recording and a view of the store that carries the entry.
 */
export async function recordActivity<C extends { store: Store; clock: Clock }, T>(
  deps: C,
  scope: Scope,
  actor: Actor,
  generic: Omit<ActivityEntry, '_id' | 'at' | 'actor'>,
  run: (recorded: C & { activity: ActivityRecording }) => Promise<T>,
): Promise<T> {
  const recording: ActivityRecording = {
    scope,
    clock: deps.clock,
    actor: actorOf(actor),
    ip: generic.ip,
    generic,
    committed: false,
    wrote: false,
    described: false,
    open: true,
  };
  const withTarget = (id: string | undefined) => (generic.target.id || !id ? generic : { ...generic, target: { ...generic.target, id } });
  const companion = {
    pending: (ops: TransactOp[]) => {
      if (!recording.open || recording.committed || recording.described) return [];
      recording.op ??= entryPut(scope, deps.clock, { ...withTarget(createdId(ops)), actor: recording.actor });
      return [recording.op];
    },
    committed: () => {
      recording.committed = true;
    },
    wrote: () => {
      recording.wrote = true;
    },
  };
  const result = await run({ ...deps, store: deps.store.forRequest({ companion }), activity: recording });
  recording.open = false;
  if (recording.wrote && !recording.committed && !recording.described) {
    await deps.store.forRequest({ companion: undefined }).transact([entryPut(scope, deps.clock, { ...withTarget(answerId(result)), actor: recording.actor })]);
  }
  return result;
}

/**
 * One page of the log, newest first. `before` is an entry id (the last one of the previous page)
 * or an ISO time: entries strictly older are listed.
 */
export async function listActivity(
  store: Store,
  scope: Scope,
  options: { before?: string; limit: number },
): Promise<{ entries: ActivityEntry[]; nextBefore: string | null }> {
  let before: string | undefined;
  if (options.before) {
    if (/^[0-9a-f]{24}$/.test(options.before)) before = options.before;
    else {
      const ms = Date.parse(options.before);
      if (Number.isNaN(ms)) throw badRequest('before: an activity id or an ISO 8601 time', { field: 'before' });
      // Ids start with the creation second in hex: every id of an earlier second sorts below.
      before = Math.floor(ms / 1000)
        .toString(16)
        .padStart(8, '0');
    }
  }
  const partitions = activityPartitions(scope);
  const page = await mergeShards({
    shards: partitions.length,
    limit: options.limit,
    after: before,
    sortKey: (entry: ActivityEntry) => entry._id,
    read: queryRead(
      async (shard, after, limit) => {
        const found = await store.query({ pk: partitions[shard]!, limit, ...afterBound(after) });
        return { items: found.items.map((item) => toRecord<ActivityEntry>(item)!), cursor: found.cursor };
      },
      (entry) => entry._id,
    ),
  });
  return { entries: page.items, nextBefore: page.last ?? null };
}

/** What the audit log can be narrowed to (GET /audit-log). */
export interface ActivityFilter {
  /** An API key id, a member id or email, or `staff` / `system`. */
  actor?: string;
  action?: string;
  /** The id of the record written. */
  target?: string;
  from?: Date;
  to?: Date;
}

/** At most this many entries are read for one filtered page; past it the page ends with a cursor. */
export const ACTIVITY_SCAN_BUDGET = 1000;

const idPrefixOf = (date: Date) =>
  Math.floor(date.getTime() / 1000)
    .toString(16)
    .padStart(8, '0');

export function activityMatches(entry: ActivityEntry, filter: ActivityFilter): boolean {
  if (filter.action && entry.action !== filter.action) return false;
  if (filter.target && entry.target.id !== filter.target) return false;
  if (filter.actor) {
    const a = entry.actor;
    const wanted = filter.actor;
    const hit =
      (wanted === 'staff' && a.staff === true) ||
      (wanted === 'system' && a.type === 'system') ||
      a.keyId === wanted ||
      a.memberId === wanted ||
      (a.email !== undefined && a.email.toLowerCase() === wanted.toLowerCase());
    if (!hit) return false;
  }
  return true;
}

/**
 * One page of the log, newest first, narrowed by `filter`. The log's write shards are merged in
 * time-ordered id order: the time range is a key range of each, and the other filters are
 * checked on what is read, at most ACTIVITY_SCAN_BUDGET entries per page, so a rare filter over a
 * long log answers in bounded time with a cursor to go on (the page may hold fewer than `limit`).
 * The cursor is the last entry id read: the next page starts strictly below it.
 */
export async function queryActivity(
  store: Store,
  scope: Scope,
  filter: ActivityFilter,
  page: { cursor?: string; limit: number },
): Promise<{ entries: ActivityEntry[]; next: string | null }> {
  if (page.cursor !== undefined && !/^[0-9a-f]{24}$/.test(page.cursor))
    throw badRequest('cursor: use the `next` value of the previous page', { field: 'cursor' });
  const lower = filter.from ? idPrefixOf(filter.from) : '0';
  // '~' sorts after every hex id; an id of the `to` second is kept (its suffix sorts below 'g').
  const top = filter.to ? `${idPrefixOf(filter.to)}g` : '~';
  const partitions = activityPartitions(scope);
  const entries: ActivityEntry[] = [];
  let scanned = 0;
  // Each shard is read between `lower` and the position it reached (inclusive: that entry is dropped).
  const read = queryRead<ActivityEntry>(
    async (shard, after, limit) => {
      const upper = after ?? top;
      if (upper < lower) return { items: [] };
      const found = await store.query({ pk: partitions[shard]!, between: [lower, upper], limit });
      scanned += found.items.length;
      // BETWEEN is inclusive: the entry at the position reached was read before (a read takes at least 2, so one that goes on keeps one).
      const items = found.items.map((item) => toRecord<ActivityEntry>(item)!).filter((entry) => entry._id !== after);
      return { items, cursor: found.cursor };
    },
    (entry) => entry._id,
    (entry) => activityMatches(entry, filter),
  );
  let after = page.cursor && page.cursor < top ? page.cursor : undefined;
  for (;;) {
    const merged = await mergeShards({ shards: partitions.length, limit: page.limit - entries.length, after, sortKey: (entry) => entry._id, read });
    entries.push(...merged.items);
    if (merged.last === undefined) return { entries, next: null };
    if (entries.length >= page.limit || scanned >= ACTIVITY_SCAN_BUDGET) return { entries, next: merged.last };
    after = merged.last;
  }
}
