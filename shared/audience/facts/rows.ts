import { gunzipSync, gzipSync } from 'node:zlib';
import { CONTACT_SOURCES, CONTACT_STATUSES, type ContactRecord, type ContactSource, type ContactStatus } from '../records';

/**
 * Contact facts in compact form: what a segment rule reads of a contact (plus `_id`, `email`,
 * `name` for previews and `smartTags` for the smart-tag refresh). Plain functions, no I/O.
 *
 * Wire form: one JSON array per contact (`FactTuple`), packed as JSON lines and gzipped into
 * snapshot chunks of at most CHUNK_BYTES each.
 */
export interface ContactFactRow {
  _id: string;
  email: string;
  name: string | null;
  status: ContactStatus;
  source: ContactSource | null;
  country: string | null;
  tags: string[];
  smartTags: string[];
  firstPurchaseAt: string | null;
  lastPurchaseAt: string | null;
  totalSpentCents: number;
  productIds: string[];
  lastOpenAt: string | null;
  lastClickAt: string | null;
}

type FactTuple = [
  string,
  string,
  string | null,
  number,
  number,
  string | null,
  string[],
  string[],
  string | null,
  string | null,
  number,
  string[],
  string | null,
  string | null,
];

/** A stored chunk stays well under DynamoDB's 400 KB item limit. */
export const CHUNK_BYTES = 350_000;

export function factRow(c: ContactRecord): ContactFactRow {
  return {
    _id: c._id,
    email: c.email,
    name: c.name,
    status: c.status,
    source: c.source,
    country: c.country,
    tags: c.tags,
    smartTags: c.smartTags ?? [],
    firstPurchaseAt: c.firstPurchaseAt,
    lastPurchaseAt: c.lastPurchaseAt,
    totalSpentCents: c.totalSpentCents,
    productIds: c.productIds,
    lastOpenAt: c.lastOpenAt,
    lastClickAt: c.lastClickAt,
  };
}

export const encodeRow = (r: ContactFactRow): string =>
  JSON.stringify([
    r._id,
    r.email,
    r.name,
    CONTACT_STATUSES.indexOf(r.status),
    r.source ? CONTACT_SOURCES.indexOf(r.source) : -1,
    r.country,
    r.tags,
    r.smartTags,
    r.firstPurchaseAt,
    r.lastPurchaseAt,
    r.totalSpentCents,
    r.productIds,
    r.lastOpenAt,
    r.lastClickAt,
  ] satisfies FactTuple);

export function decodeRow(line: string): ContactFactRow {
  const t = JSON.parse(line) as FactTuple;
  return {
    _id: t[0],
    email: t[1],
    name: t[2],
    status: CONTACT_STATUSES[t[3]]!,
    source: t[4] >= 0 ? CONTACT_SOURCES[t[4]]! : null,
    country: t[5],
    tags: t[6],
    smartTags: t[7],
    firstPurchaseAt: t[8],
    lastPurchaseAt: t[9],
    totalSpentCents: t[10],
    productIds: t[11],
    lastOpenAt: t[12],
    lastClickAt: t[13],
  };
}

/**
 * Packs encoded rows into gzipped chunks of at most `maxBytes` each: lines are grouped by raw size
 * (JSON of ids, emails and ISO dates compresses about 4:1), and a group that still compresses
 * above the limit is split in two.
 */
export function packChunks(lines: string[], maxBytes = CHUNK_BYTES): Buffer[] {
  const out: Buffer[] = [];
  const pack = (group: string[]) => {
    const zipped = gzipSync(group.join('\n'));
    if (zipped.length <= maxBytes || group.length === 1) {
      out.push(zipped);
      return;
    }
    const half = Math.ceil(group.length / 2);
    pack(group.slice(0, half));
    pack(group.slice(half));
  };
  let group: string[] = [];
  let raw = 0;
  for (const line of lines) {
    if (raw + line.length > maxBytes * 3 && group.length) {
      pack(group);
      group = [];
      raw = 0;
    }
    group.push(line);
    raw += line.length + 1;
  }
  if (group.length) pack(group);
  return out;
}

export function unpackChunk(data: Uint8Array): ContactFactRow[] {
  const text = gunzipSync(data).toString('utf8');
  return text ? text.split('\n').map(decodeRow) : [];
}

/**
 * A change recorded since the snapshot: the whole row, the contact gone, one engagement time, or its
 * tag lists. A row or gone delta may carry `was`, the contact as it was just before this change
 * (null: it did not exist); deltas written before it was recorded have none (undefined). A saved
 * segment's stored count is moved by these (shared/segments/counts.ts).
 */
export type FactDelta =
  | { kind: 'row'; row: ContactFactRow; was?: ContactFactRow | null }
  | { kind: 'gone'; id: string; was?: ContactFactRow | null }
  | { kind: 'open' | 'click'; id: string; at: string }
  /** A batched tag change (the smart-tag refresh): the tag lists the record now holds. */
  | { kind: 'tags'; id: string; tags: string[]; smartTags: string[] };

/** A delta with the time it was written at (the first part of its key). */
export type StampedDelta = FactDelta & { stamp: string };

/** The `was` attribute of a delta item: '' for a contact created by the change, an encoded row otherwise. */
export const decodeWas = (was: string | undefined): ContactFactRow | null | undefined => (was === undefined ? undefined : was === '' ? null : decodeRow(was));

const later = (a: string | null, b: string) => (a && a > b ? a : b);

/** An engagement time (the later one wins) or a batched tag change on top of a contact's row. */
export function applyPartial(before: ContactFactRow, delta: Extract<FactDelta, { kind: 'open' | 'click' | 'tags' }>): ContactFactRow {
  if (delta.kind === 'tags') return { ...before, tags: delta.tags, smartTags: delta.smartTags };
  return delta.kind === 'open'
    ? { ...before, lastOpenAt: later(before.lastOpenAt, delta.at) }
    : { ...before, lastClickAt: later(before.lastClickAt, delta.at) };
}

/**
 * The snapshot's rows with the deltas applied in the order they were written, subscribed contacts
 * only, oldest contact first (the order a send walks). Engagement deltas keep the later time, so a
 * full row written from an older read cannot move them back.
 */
export function mergeFacts(snapshot: ContactFactRow[], deltas: FactDelta[]): ContactFactRow[] {
  if (!deltas.length) return snapshot.filter((r) => r.status === 'subscribed');
  const changed = new Map<string, ContactFactRow | null>();
  const base = new Map<string, ContactFactRow>();
  const current = (id: string): ContactFactRow | null | undefined => {
    if (changed.has(id)) return changed.get(id);
    if (!base.size) for (const r of snapshot) base.set(r._id, r);
    return base.get(id);
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
      if (!before) continue; // not a subscribed contact of the snapshot, and no row since: nothing to evaluate
      changed.set(delta.id, applyPartial(before, delta));
    }
  }
  const out: ContactFactRow[] = [];
  for (const r of snapshot) {
    if (changed.has(r._id)) continue;
    if (r.status === 'subscribed') out.push(r);
  }
  let added = false;
  for (const r of changed.values()) {
    if (r && r.status === 'subscribed') {
      out.push(r);
      added = true;
    }
  }
  if (added) out.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  return out;
}

export function maxTime(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
