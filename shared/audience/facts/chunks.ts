import { gunzipSync, gzipSync } from 'node:zlib';
import type { ContactFactRow } from './rows';
import { decodeTable, Dictionary, tableFromRows, textAcross, type FactsTable } from './table';

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
  const header = Buffer.from(
    JSON.stringify({
      f: F3,
      n: t.size,
      ids: t.ids,
      tags: t.tags,
      products: t.products,
      countries: t.countries,
      lists: [t.tagIds.length, t.smartIds.length, t.productIds.length],
    }),
  );
  const counts = (start: Uint32Array) => Uint32Array.from({ length: t.size }, (_, i) => start[i + 1]! - start[i]!);
  const parts: ArrayBufferView[] = [
    t.firstPurchase,
    t.lastPurchase,
    t.lastOpen,
    t.lastClick,
    t.spent,
    counts(t.tagStart),
    counts(t.smartStart),
    counts(t.productStart),
    t.tagIds,
    t.smartIds,
    t.productIds,
    t.country,
    t.status,
    t.source,
  ];
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
    return {
      header,
      core,
      at: 4 + headerLength,
      text: (i: number): [string, string | null] => {
        text ??= JSON.parse(gunzipSync(zipped).toString('utf8')) as [string[], (string | null)[]];
        return [text[0][i]!, text[1][i]!];
      },
    };
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
