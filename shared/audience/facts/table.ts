import { CONTACT_SOURCES, CONTACT_STATUSES } from '../records';
import type { ContactFactRow } from './rows';

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
export const timeText = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

export class Dictionary {
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

export const listAt = (start: Uint32Array, flat: Uint32Array, dict: string[], i: number) => {
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

export function decodeTable(raw: Buffer): FactsTable {
  const headerLength = raw.readUInt32LE(0);
  const h = JSON.parse(raw.toString('utf8', 4, 4 + headerLength)) as {
    f: string;
    n: number;
    ids: string[];
    emails: string[];
    names: (string | null)[];
    tags: string[];
    products: string[];
    countries: string[];
    lists: [number, number, number];
  };
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
  return {
    size: n,
    ids: h.ids,
    text: (i) => [h.emails[i]!, h.names[i]!],
    status,
    source,
    country,
    firstPurchase,
    lastPurchase,
    lastOpen,
    lastClick,
    spent,
    tagStart,
    tagIds,
    smartStart,
    smartIds,
    productStart,
    productIds,
    tags: h.tags,
    products: h.products,
    countries: h.countries,
  };
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
  const [tagStart, tagIds] = lists(
    (t) => t.tagStart,
    (t) => t.tagIds,
    (t) => t.tags,
    tags,
  );
  const [smartStart, smartIds] = lists(
    (t) => t.smartStart,
    (t) => t.smartIds,
    (t) => t.tags,
    tags,
  );
  const [productStart, productIds] = lists(
    (t) => t.productStart,
    (t) => t.productIds,
    (t) => t.products,
    products,
  );
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
    status: cat(
      (len) => new Uint8Array(len),
      (t) => t.status,
    ),
    source: cat(
      (len) => new Int8Array(len),
      (t) => t.source,
    ),
    country,
    firstPurchase: cat(
      (len) => new Float64Array(len),
      (t) => t.firstPurchase,
    ),
    lastPurchase: cat(
      (len) => new Float64Array(len),
      (t) => t.lastPurchase,
    ),
    lastOpen: cat(
      (len) => new Float64Array(len),
      (t) => t.lastOpen,
    ),
    lastClick: cat(
      (len) => new Float64Array(len),
      (t) => t.lastClick,
    ),
    spent: cat(
      (len) => new Float64Array(len),
      (t) => t.spent,
    ),
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
export function textAcross(parts: { size: number; text: (i: number) => [string, string | null] }[]): (i: number) => [string, string | null] {
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
