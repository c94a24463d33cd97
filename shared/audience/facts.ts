import { gunzipSync, gzipSync } from 'node:zlib';
import { CONTACT_SOURCES, CONTACT_STATUSES, type ContactRecord, type ContactSource, type ContactStatus } from './records';

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

type FactTuple = [string, string, string | null, number, number, string | null, string[], string[], string | null, string | null, number, string[], string | null, string | null];

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

/** A change recorded since the snapshot: the whole row, the contact gone, one engagement time, or its tag lists. */
export type FactDelta =
  | { kind: 'row'; row: ContactFactRow }
  | { kind: 'gone'; id: string }
  | { kind: 'open' | 'click'; id: string; at: string }
  /** A batched tag change (the smart-tag refresh): the tag lists the record now holds. */
  | { kind: 'tags'; id: string; tags: string[]; smartTags: string[] };

const later = (a: string | null, b: string) => (a && a > b ? a : b);

/** An engagement time (the later one wins) or a batched tag change on top of a contact's row. */
function applyPartial(before: ContactFactRow, delta: Extract<FactDelta, { kind: 'open' | 'click' | 'tags' }>): ContactFactRow {
  if (delta.kind === 'tags') return { ...before, tags: delta.tags, smartTags: delta.smartTags };
  return delta.kind === 'open' ? { ...before, lastOpenAt: later(before.lastOpenAt, delta.at) } : { ...before, lastClickAt: later(before.lastClickAt, delta.at) };
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
      changed.set(delta.row._id, before ? { ...delta.row, lastOpenAt: maxTime(before.lastOpenAt, delta.row.lastOpenAt), lastClickAt: maxTime(before.lastClickAt, delta.row.lastClickAt) } : delta.row);
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

function maxTime(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}

// ---- columnar snapshot: what a count evaluates over ----

/**
 * A snapshot in columns, one entry per contact, sorted by id: times as epoch ms in Float64Array
 * (NaN = none), tags, smart tags and products as dictionary ids (`*Start[i]..*Start[i+1]` in the
 * flat `*Ids`), status, source and country as small integers. A count walks these arrays without
 * building an object per contact, and the snapshot decodes in one JSON.parse per chunk plus typed
 * array copies.
 */
export interface FactsTable {
  size: number;
  ids: string[];
  /** Email and name of entry `i`: only samples and member pages read them, so a stored chunk's are parsed on first use. */
  text: (i: number) => [string, string | null];
  status: Uint8Array;
  /** Index in CONTACT_SOURCES, -1 none. */
  source: Int8Array;
  /** Index in `countries`, -1 none. */
  country: Int32Array;
  firstPurchase: Float64Array;
  lastPurchase: Float64Array;
  lastOpen: Float64Array;
  lastClick: Float64Array;
  spent: Float64Array;
  tagStart: Uint32Array;
  tagIds: Uint32Array;
  smartStart: Uint32Array;
  smartIds: Uint32Array;
  productStart: Uint32Array;
  productIds: Uint32Array;
  tags: string[];
  products: string[];
  countries: string[];
}

const timeMs = (at: string | null) => (at ? Date.parse(at) : NaN);
const timeText = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

class Dictionary {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  id(value: string): number {
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.index.set(value, id);
    }
    return id;
  }
}

/** Rows (sorted by id) into columns. */
export function tableFromRows(rows: ContactFactRow[]): FactsTable {
  const n = rows.length;
  const tags = new Dictionary();
  const products = new Dictionary();
  const countries = new Dictionary();
  const lists = (pick: (r: ContactFactRow) => string[], dict: Dictionary) => {
    const start = new Uint32Array(n + 1);
    const flat: number[] = [];
    for (let i = 0; i < n; i++) {
      start[i] = flat.length;
      for (const value of pick(rows[i]!)) flat.push(dict.id(value));
    }
    start[n] = flat.length;
    return [start, Uint32Array.from(flat)] as const;
  };
  const [tagStart, tagIds] = lists((r) => r.tags, tags);
  const [smartStart, smartIds] = lists((r) => r.smartTags, tags);
  const [productStart, productIds] = lists((r) => r.productIds, products);
  const column = (pick: (r: ContactFactRow) => number) => Float64Array.from(rows, pick);
  return {
    size: n,
    ids: rows.map((r) => r._id),
    text: (i) => [rows[i]!.email, rows[i]!.name],
    status: Uint8Array.from(rows, (r) => CONTACT_STATUSES.indexOf(r.status)),
    source: Int8Array.from(rows, (r) => (r.source ? CONTACT_SOURCES.indexOf(r.source) : -1)),
    country: Int32Array.from(rows, (r) => (r.country === null ? -1 : countries.id(r.country))),
    firstPurchase: column((r) => timeMs(r.firstPurchaseAt)),
    lastPurchase: column((r) => timeMs(r.lastPurchaseAt)),
    lastOpen: column((r) => timeMs(r.lastOpenAt)),
    lastClick: column((r) => timeMs(r.lastClickAt)),
    spent: column((r) => r.totalSpentCents),
    tagStart,
    tagIds,
    smartStart,
    smartIds,
    productStart,
    productIds,
    tags: tags.values,
    products: products.values,
    countries: countries.values,
  };
}

const listAt = (start: Uint32Array, flat: Uint32Array, dict: string[], i: number) => {
  const out: string[] = [];
  for (let k = start[i]!; k < start[i + 1]!; k++) out.push(dict[flat[k]!]!);
  return out;
};

/** One contact of a table as a row (times in canonical ISO form). */
export function rowAt(t: FactsTable, i: number): ContactFactRow {
  const [email, name] = t.text(i);
  return {
    _id: t.ids[i]!,
    email,
    name,
    status: CONTACT_STATUSES[t.status[i]!]!,
    source: t.source[i]! >= 0 ? CONTACT_SOURCES[t.source[i]!]! : null,
    country: t.country[i]! >= 0 ? t.countries[t.country[i]!]! : null,
    tags: listAt(t.tagStart, t.tagIds, t.tags, i),
    smartTags: listAt(t.smartStart, t.smartIds, t.tags, i),
    firstPurchaseAt: timeText(t.firstPurchase[i]!),
    lastPurchaseAt: timeText(t.lastPurchase[i]!),
    totalSpentCents: t.spent[i]!,
    productIds: listAt(t.productStart, t.productIds, t.products, i),
    lastOpenAt: timeText(t.lastOpen[i]!),
    lastClickAt: timeText(t.lastClick[i]!),
  };
}

export const tableRows = (t: FactsTable): ContactFactRow[] => Array.from({ length: t.size }, (_, i) => rowAt(t, i));

/** Index of `id` in the table's sorted ids, or -1. */
export function indexOfId(t: FactsTable, id: string): number {
  let lo = 0;
  let hi = t.size;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < t.size && t.ids[lo] === id ? lo : -1;
}

/**
 * Binary chunk: `u32 header length`, the header (JSON: strings and dictionaries), then the numeric
 * columns as little-endian bytes (5 × Float64 per contact, list lengths as Uint16, dictionary ids
 * as Uint32, status, source), gzipped at speed level 1.
 */
const FORMAT = 'F2';


function decodeTable(raw: Buffer): FactsTable {
  const headerLength = raw.readUInt32LE(0);
  const h = JSON.parse(raw.toString('utf8', 4, 4 + headerLength)) as { f: string; n: number; ids: string[]; emails: string[]; names: (string | null)[]; tags: string[]; products: string[]; countries: string[]; lists: [number, number, number] };
  if (h.f !== FORMAT) throw new Error(`unknown contact facts chunk format ${h.f}`);
  let at = 4 + headerLength;
  // Copies (slice) so each array is aligned whatever the header length.
  const take = <T>(make: (b: ArrayBuffer) => T, bytes: number): T => {
    const out = make(raw.buffer.slice(raw.byteOffset + at, raw.byteOffset + at + bytes) as ArrayBuffer);
    at += bytes;
    return out;
  };
  const n = h.n;
  const f64 = () => take((b) => new Float64Array(b), n * 8);
  const [firstPurchase, lastPurchase, lastOpen, lastClick, spent] = [f64(), f64(), f64(), f64(), f64()];
  const starts = () => {
    const counts = take((b) => new Uint32Array(b), n * 4);
    const start = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) start[i + 1] = start[i]! + counts[i]!;
    return start;
  };
  const [tagStart, smartStart, productStart] = [starts(), starts(), starts()];
  const [tagIds, smartIds, productIds] = h.lists.map((len) => take((b) => new Uint32Array(b), len * 4)) as [Uint32Array, Uint32Array, Uint32Array];
  const country = take((b) => new Int32Array(b), n * 4);
  const status = take((b) => new Uint8Array(b), n);
  const source = take((b) => new Int8Array(b), n);
  return { size: n, ids: h.ids, text: (i) => [h.emails[i]!, h.names[i]!], status, source, country, firstPurchase, lastPurchase, lastOpen, lastClick, spent, tagStart, tagIds, smartStart, smartIds, productStart, productIds, tags: h.tags, products: h.products, countries: h.countries };
}

/** Tables one after another (ids ascending across them), dictionaries merged. */
export function concatTables(tables: FactsTable[]): FactsTable {
  if (tables.length === 1) return tables[0]!;
  const tags = new Dictionary();
  const products = new Dictionary();
  const countries = new Dictionary();
  const n = tables.reduce((a, t) => a + t.size, 0);
  const cat = <A extends Float64Array | Uint8Array | Int8Array>(make: (len: number) => A, pick: (t: FactsTable) => A): A => {
    const out = make(n);
    let at = 0;
    for (const t of tables) {
      (out as Float64Array).set(pick(t) as Float64Array, at);
      at += t.size;
    }
    return out;
  };
  const lists = (startOf: (t: FactsTable) => Uint32Array, idsOf: (t: FactsTable) => Uint32Array, dictOf: (t: FactsTable) => string[], dict: Dictionary) => {
    const start = new Uint32Array(n + 1);
    const flat = new Uint32Array(tables.reduce((a, t) => a + idsOf(t).length, 0));
    let row = 0;
    let base = 0;
    for (const t of tables) {
      const map = dictOf(t).map((v) => dict.id(v));
      const s = startOf(t);
      const ids = idsOf(t);
      for (let i = 0; i < t.size; i++) start[row + i] = base + s[i]!;
      for (let k = 0; k < ids.length; k++) flat[base + k] = map[ids[k]!]!;
      row += t.size;
      base += ids.length;
    }
    start[n] = base;
    return [start, flat] as const;
  };
  const [tagStart, tagIds] = lists((t) => t.tagStart, (t) => t.tagIds, (t) => t.tags, tags);
  const [smartStart, smartIds] = lists((t) => t.smartStart, (t) => t.smartIds, (t) => t.tags, tags);
  const [productStart, productIds] = lists((t) => t.productStart, (t) => t.productIds, (t) => t.products, products);
  const country = new Int32Array(n);
  let row = 0;
  for (const t of tables) {
    const map = t.countries.map((c) => countries.id(c));
    for (let i = 0; i < t.size; i++) country[row + i] = t.country[i]! >= 0 ? map[t.country[i]!]! : -1;
    row += t.size;
  }
  return {
    size: n,
    ids: tables.flatMap((t) => t.ids),
    text: textAcross(tables.map((t) => ({ size: t.size, text: t.text }))),
    status: cat((len) => new Uint8Array(len), (t) => t.status),
    source: cat((len) => new Int8Array(len), (t) => t.source),
    country,
    firstPurchase: cat((len) => new Float64Array(len), (t) => t.firstPurchase),
    lastPurchase: cat((len) => new Float64Array(len), (t) => t.lastPurchase),
    lastOpen: cat((len) => new Float64Array(len), (t) => t.lastOpen),
    lastClick: cat((len) => new Float64Array(len), (t) => t.lastClick),
    spent: cat((len) => new Float64Array(len), (t) => t.spent),
    tagStart,
    tagIds,
    smartStart,
    smartIds,
    productStart,
    productIds,
    tags: tags.values,
    products: products.values,
    countries: countries.values,
  };
}

/** Entry `i` of tables laid end to end, through each part's own `text`. */
function textAcross(parts: { size: number; text: (i: number) => [string, string | null] }[]): (i: number) => [string, string | null] {
  const starts: number[] = [];
  let at = 0;
  for (const part of parts) {
    starts.push(at);
    at += part.size;
  }
  return (i) => {
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return parts[lo]!.text(i - starts[lo]!);
  };
}

/** A stored columnar chunk stays under DynamoDB's 400 KB item limit (with the key and attribute names). */
export const TABLE_CHUNK_BYTES = 390_000;

/**
 * Chunk format F3: `u32 length of A`, then A = gzip(`u32 header length`, header JSON (ids and the
 * tag / product / country dictionaries), the numeric columns as little-endian bytes: 5 × Float64
 * per contact, list lengths as Uint32, dictionary ids as Uint32, country as Int32, status, source),
 * then B = gzip(JSON `[emails, names]`). A count decompresses and parses A only; B (more than half
 * the bytes) is decompressed and parsed the first time a sample or member page reads a row of it.
 */
const F3 = 'F3';

function encodeChunk(rows: ContactFactRow[]): Buffer {
  const t = tableFromRows(rows);
  const header = Buffer.from(JSON.stringify({ f: F3, n: t.size, ids: t.ids, tags: t.tags, products: t.products, countries: t.countries, lists: [t.tagIds.length, t.smartIds.length, t.productIds.length] }));
  const counts = (start: Uint32Array) => Uint32Array.from({ length: t.size }, (_, i) => start[i + 1]! - start[i]!);
  const parts: ArrayBufferView[] = [t.firstPurchase, t.lastPurchase, t.lastOpen, t.lastClick, t.spent, counts(t.tagStart), counts(t.smartStart), counts(t.productStart), t.tagIds, t.smartIds, t.productIds, t.country, t.status, t.source];
  const headerLength = Buffer.alloc(4);
  headerLength.writeUInt32LE(header.length);
  const core = gzipSync(Buffer.concat([headerLength, header, ...parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))]), { level: 1 });
  const text = gzipSync(JSON.stringify([rows.map((r) => r.email), rows.map((r) => r.name)]), { level: 1 });
  const coreLength = Buffer.alloc(4);
  coreLength.writeUInt32LE(core.length);
  return Buffer.concat([coreLength, core, text]);
}

/**
 * Rows (sorted by id) into gzipped columnar chunks (F3) of at most `maxBytes`: groups sized by an
 * estimate (about 10:1 compression measured on seeded contacts), a group that still compresses above the limit split in two.
 */
export function packTable(rows: ContactFactRow[], maxBytes = TABLE_CHUNK_BYTES): Buffer[] {
  const out: Buffer[] = [];
  const pack = (group: ContactFactRow[]) => {
    const chunk = encodeChunk(group);
    if (chunk.length <= maxBytes || group.length === 1) {
      out.push(chunk);
      return;
    }
    const half = Math.ceil(group.length / 2);
    pack(group.slice(0, half));
    pack(group.slice(half));
  };
  let start = 0;
  let raw = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    const size = 80 + r._id.length + r.email.length + (r.name?.length ?? 4) + 6 * (r.tags.length + r.smartTags.length + r.productIds.length);
    if (raw + size > maxBytes * 8 && i > start) {
      pack(rows.slice(start, i));
      start = i;
      raw = 0;
    }
    raw += size;
  }
  if (rows.length > start) pack(rows.slice(start));
  return out;
}

/** A format F2 chunk (snapshots written before F3). */
export const unpackTableChunk = (data: Uint8Array): FactsTable => decodeTable(gunzipSync(data));

interface F3Header {
  f: string;
  n: number;
  ids: string[];
  tags: string[];
  products: string[];
  countries: string[];
  lists: [number, number, number];
}

/**
 * F3 chunks (in id order) decoded straight into one table: each chunk's numeric columns are copied
 * once into arrays sized for all of them (no per-chunk table, no second copy), dictionary ids
 * remapped to the merged dictionaries; emails and names stay compressed until read.
 */
export function unpackTables(chunks: Uint8Array[]): FactsTable {
  const parts = chunks.map((data) => {
    const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const coreLength = buffer.readUInt32LE(0);
    const core = gunzipSync(buffer.subarray(4, 4 + coreLength));
    const headerLength = core.readUInt32LE(0);
    const header = JSON.parse(core.toString('utf8', 4, 4 + headerLength)) as F3Header;
    if (header.f !== F3) throw new Error(`unknown contact facts chunk format ${header.f}`);
    let text: [string[], (string | null)[]] | undefined;
    const zipped = buffer.subarray(4 + coreLength);
    return { header, core, at: 4 + headerLength, text: (i: number): [string, string | null] => {
      text ??= JSON.parse(gunzipSync(zipped).toString('utf8')) as [string[], (string | null)[]];
      return [text[0][i]!, text[1][i]!];
    } };
  });
  const n = parts.reduce((a, p) => a + p.header.n, 0);
  const totals = [0, 1, 2].map((k) => parts.reduce((a, p) => a + p.header.lists[k]!, 0));
  const tags = new Dictionary();
  const products = new Dictionary();
  const countries = new Dictionary();
  const t: FactsTable = {
    size: n,
    ids: n ? new Array<string>(n) : [],
    text: textAcross(parts.map((p) => ({ size: p.header.n, text: p.text }))),
    status: new Uint8Array(n),
    source: new Int8Array(n),
    country: new Int32Array(n),
    firstPurchase: new Float64Array(n),
    lastPurchase: new Float64Array(n),
    lastOpen: new Float64Array(n),
    lastClick: new Float64Array(n),
    spent: new Float64Array(n),
    tagStart: new Uint32Array(n + 1),
    tagIds: new Uint32Array(totals[0]!),
    smartStart: new Uint32Array(n + 1),
    smartIds: new Uint32Array(totals[1]!),
    productStart: new Uint32Array(n + 1),
    productIds: new Uint32Array(totals[2]!),
    tags: tags.values,
    products: products.values,
    countries: countries.values,
  };
  let row = 0;
  const listBase = [0, 0, 0];
  for (const { header: h, core, at: from } of parts) {
    const m = h.n;
    let at = from;
    // Copied out byte-wise: the views must be aligned, the header length is arbitrary.
    const take = (bytes: number) => {
      const slice = core.subarray(at, at + bytes);
      at += bytes;
      return slice;
    };
    const aligned = (bytes: number) => {
      const copy = new Uint8Array(bytes);
      copy.set(take(bytes));
      return copy.buffer;
    };
    const f64 = (target: Float64Array) => new Uint8Array(target.buffer).set(take(m * 8), row * 8);
    f64(t.firstPurchase);
    f64(t.lastPurchase);
    f64(t.lastOpen);
    f64(t.lastClick);
    f64(t.spent);
    const counts = [0, 1, 2].map(() => new Uint32Array(aligned(m * 4)));
    const tagMap = h.tags.map((v) => tags.id(v));
    const maps = [tagMap, tagMap, h.products.map((v) => products.id(v))];
    const starts = [t.tagStart, t.smartStart, t.productStart];
    const flats = [t.tagIds, t.smartIds, t.productIds];
    for (let k = 0; k < 3; k++) {
      const start = starts[k]!;
      const count = counts[k]!;
      let base = listBase[k]!;
      for (let i = 0; i < m; i++) {
        start[row + i] = base;
        base += count[i]!;
      }
    }
    for (let k = 0; k < 3; k++) {
      const ids = new Uint32Array(aligned(h.lists[k]! * 4));
      const flat = flats[k]!;
      const map = maps[k]!;
      const base = listBase[k]!;
      for (let j = 0; j < ids.length; j++) flat[base + j] = map[ids[j]!]!;
      listBase[k] = base + ids.length;
    }
    const countryMap = h.countries.map((v) => countries.id(v));
    const country = new Int32Array(aligned(m * 4));
    for (let i = 0; i < m; i++) t.country[row + i] = country[i]! >= 0 ? countryMap[country[i]!]! : -1;
    t.status.set(take(m), row);
    new Uint8Array(t.source.buffer).set(take(m), row);
    for (let i = 0; i < m; i++) t.ids[row + i] = h.ids[i]!;
    row += m;
  }
  t.tagStart[n] = listBase[0]!;
  t.smartStart[n] = listBase[1]!;
  t.productStart[n] = listBase[2]!;
  return t;
}

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
      changed.set(delta.row._id, before ? { ...delta.row, lastOpenAt: maxTime(before.lastOpenAt, delta.row.lastOpenAt), lastClickAt: maxTime(before.lastClickAt, delta.row.lastClickAt) } : delta.row);
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
export function walkView(view: FactsView, after: string | undefined, fn: (at: { index: number; row?: undefined } | { index: -1; row: ContactFactRow }) => boolean): void {
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
