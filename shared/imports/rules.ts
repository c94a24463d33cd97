import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { FIELDS, fieldsOf, GENERIC_COLUMNS, platformOf, type Kind } from './platforms';

/** Our field -> the CSV column it is read from (null: not in this file). */
export type Mapping = Record<string, string | null>;

export interface ParsedCsv {
  header: string[];
  rows: string[][];
}

/**
 * Parses an export as platforms write them: a UTF-8 BOM, CRLF or LF, quoted cells with commas
 * and newlines, and `,`, `;` or tab as delimiter (sniffed from the header line).
 */
export function parseCsv(text: string): ParsedCsv {
  const body = text.replace(/^\uFEFF/, '');
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const delimiter = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length] as const).sort((a, b) => b[1] - a[1])[0]![0];
  const records = parse(body, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  if (!records.length) throw new Error('the file is empty');
  const header = records[0]!.map((cell) => cell.trim());
  if (header.every((cell) => !cell)) throw new Error('the first line has no column names');
  return { header, rows: records.slice(1) };
}

/**
 * Rows `from` (0-based, after the header) up to `to` of a CSV, as `parseCsv` reads them: the file
 * worker stores a large file's rows chunk by chunk from the CSV kept in the blob store.
 */
export function parseCsvRows(text: string, from: number, to: number): string[][] {
  return parseCsv(text).rows.slice(from, to);
}

/** The mapping of a file: the platform's own columns first, then common spellings, case-insensitively. */
export function detectMapping(source: string, kind: Kind, header: string[]): Mapping {
  const byLower = new Map(header.map((column) => [column.toLowerCase(), column]));
  const known = platformOf(source)?.exports.find((entry) => entry.kind === kind)?.fields ?? {};
  const mapping: Mapping = {};
  for (const field of fieldsOf(kind)) {
    const candidates = [known[field], ...(GENERIC_COLUMNS[field] ?? [])].filter((c): c is string => !!c);
    mapping[field] = candidates.map((c) => byLower.get(c.toLowerCase())).find((c) => c !== undefined) ?? null;
  }
  return mapping;
}

/** Why a mapping cannot be used (a required field unmapped, a column not in the file, an unknown field). */
export function mappingProblems(kind: Kind, mapping: Mapping, header: string[]): string[] {
  const problems: string[] = [];
  const fields = new Set(fieldsOf(kind));
  for (const field of Object.keys(mapping)) if (!fields.has(field)) problems.push(`${field}: not a field of ${kind} (fields: ${[...fields].join(', ')})`);
  for (const [field, column] of Object.entries(mapping))
    if (column && !header.includes(column)) problems.push(`${field}: column "${column}" is not in the file`);
  for (const field of FIELDS[kind].required) if (!mapping[field]) problems.push(`${field}: required, map it to a column`);
  return problems;
}

export type SubscriberStatus = 'subscribed' | 'unsubscribed' | 'bounced';

export interface ProductRow {
  kind: 'products';
  sourceId: string | null;
  name: string;
  price: number;
  description: string | null;
  fileUrl: string | null;
}
export interface CustomerRow {
  kind: 'customers';
  email: string;
  name: string | null;
  country: string | null;
}
export interface OrderRow {
  kind: 'orders';
  key: string;
  orderId: string | null;
  email: string;
  name: string | null;
  country: string | null;
  productName: string | null;
  productId: string | null;
  amountCents: number | null;
  currency: string | null;
  date: string | null;
  refunded: boolean;
}
/** `status` null: no consent (archived, requires_verification, unknown), left out. */
export interface SubscriberRow {
  kind: 'subscribers';
  email: string;
  name: string | null;
  status: SubscriberStatus | null;
  rawStatus: string;
  optedInAt: string | null;
  tags: string[];
}
export type ImportRow = ProductRow | CustomerRow | OrderRow | SubscriberRow;

export type Checked = { ok: true; row: ImportRow } | { ok: false; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const cell = (values: Record<string, string>, mapping: Mapping, field: string) => {
  const column = mapping[field];
  const value = column ? values[column]?.trim() : undefined;
  return value ? value : null;
};
const joinName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;

/** A money cell as platforms write it ("$1,234.50", "12,00", "9.99 USD") in dollars, or NaN. */
export function parseMoney(text: string): number {
  const cleaned = text.replace(/[^\d.,-]/g, '');
  const normalized = /,\d{1,2}$/.test(cleaned) && !cleaned.includes('.') ? cleaned.replace(',', '.') : cleaned.replace(/,/g, '');
  return normalized && /^-?\d*(\.\d+)?$/.test(normalized) ? Number(normalized) : NaN;
}

/**
 * A date cell as platforms write it: ISO 8601, a bare date, "2023-01-02 10:00:00" (UTC, Gumroad)
 * or "2023-02-01 10:00:00 -0500" (Shopify's orders export, with the shop's offset).
 */
export function parseDate(text: string | null): string | null | undefined {
  if (!text) return null;
  const spaced = /^(\d{4}-\d{2}-\d{2}) (\d{1,2}:\d{2}(?::\d{2})?)\s*(?:([+-]\d{2}):?(\d{2})|UTC|Z)?$/i.exec(text.trim());
  const ms = Date.parse(spaced ? `${spaced[1]}T${spaced[2]!.replace(/^(\d):/, '0$1:')}${spaced[3] ? `${spaced[3]}:${spaced[4]}` : 'Z'}` : text);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

const truthy = (text: string | null) => !!text && /^(yes|true|1|y|refunded|fully refunded)$/i.test(text.trim());

/**
 * Subscriber statuses of the platforms, to ours. Anything not listed (archived,
 * requires_verification, pending, unknown) has no consent.
 */
const STATUS: Record<string, SubscriberStatus> = {
  subscribed: 'subscribed',
  active: 'subscribed',
  yes: 'subscribed',
  true: 'subscribed',
  confirmed: 'subscribed',
  'opted in': 'subscribed',
  unsubscribed: 'unsubscribed',
  inactive: 'unsubscribed',
  no: 'unsubscribed',
  false: 'unsubscribed',
  cancelled: 'unsubscribed',
  canceled: 'unsubscribed',
  bounced: 'bounced',
  cleaned: 'bounced',
};
export const subscriberStatus = (text: string | null): SubscriberStatus | null => (text ? (STATUS[text.trim().toLowerCase()] ?? null) : null);

/** Mailchimp writes one file per status; its name says which (subscribed_members_export_*.csv). */
export function statusFromFilename(source: string, filename: string): string | null {
  if (source !== 'mailchimp') return null;
  const match = /^(subscribed|unsubscribed|cleaned)_/i.exec(filename);
  return match ? match[1]!.toLowerCase() : null;
}

/** A stable identity of an order row without an order id: the same row always hashes the same. */
/**
 * A product file's name as the last segment of its blob key: word characters, dots and dashes, and
 * never `.` or `..` alone (URLs and paths resolve those, so the key would name another place).
 */
export const blobFileName = (filename: string) => filename.replace(/[^\w.-]+/g, '_').replace(/^\.{1,2}$/, '_') || '_';

export const rowHash = (values: string[]) => createHash('sha256').update(JSON.stringify(values)).digest('hex').slice(0, 32);

/** Reads and checks one row of a file with its mapping. */
export function checkRow(kind: Kind, header: string[], raw: string[], mapping: Mapping, options: { source: string; filename: string }): Checked {
  const values: Record<string, string> = {};
  for (const [index, column] of header.entries()) values[column] = raw[index] ?? '';
  const get = (field: string) => cell(values, mapping, field);
  const email = get('email')?.toLowerCase() ?? null;
  const needEmail = (): string | undefined => (!email ? 'email: missing' : !EMAIL.test(email) ? `email: "${email}" is not an email address` : undefined);
  switch (kind) {
    case 'products': {
      const name = get('name');
      if (!name) return { ok: false, reason: 'name: missing' };
      if (name.length > 200) return { ok: false, reason: 'name: longer than 200 characters' };
      const priceText = get('price');
      if (!priceText) return { ok: false, reason: 'price: missing' };
      const price = parseMoney(priceText);
      if (Number.isNaN(price) || price < 0) return { ok: false, reason: `price: "${priceText}" is not a price` };
      return {
        ok: true,
        row: { kind, sourceId: get('sourceId'), name, price: Math.round(price * 100) / 100, description: get('description'), fileUrl: get('fileUrl') },
      };
    }
    case 'customers': {
      const bad = needEmail();
      if (bad) return { ok: false, reason: bad };
      return { ok: true, row: { kind, email: email!, name: get('name') ?? joinName(get('firstName'), get('lastName')), country: get('country') } };
    }
    case 'orders': {
      const bad = needEmail();
      if (bad) return { ok: false, reason: bad };
      const amountText = get('amount');
      const amount = amountText ? parseMoney(amountText) : null;
      if (amount !== null && Number.isNaN(amount)) return { ok: false, reason: `amount: "${amountText}" is not an amount` };
      const date = parseDate(get('date'));
      if (date === undefined) return { ok: false, reason: `date: "${get('date')}" is not a date` };
      const orderId = get('orderId');
      return {
        ok: true,
        row: {
          kind,
          key: orderId ? `id:${orderId}` : `hash:${rowHash(raw)}`,
          orderId,
          email: email!,
          name: get('name'),
          country: get('country'),
          productName: get('productName'),
          productId: get('productId'),
          amountCents: amount === null ? null : Math.round(amount * 100),
          currency: get('currency')?.toUpperCase() ?? null,
          date,
          refunded: truthy(get('refunded')),
        },
      };
    }
    case 'subscribers': {
      const bad = needEmail();
      if (bad) return { ok: false, reason: bad };
      const rawStatus = get('status') ?? statusFromFilename(options.source, options.filename) ?? '';
      const optedInAt = parseDate(get('optedInAt'));
      if (optedInAt === undefined) return { ok: false, reason: `optedInAt: "${get('optedInAt')}" is not a date` };
      const tags = (get('tags') ?? '')
        .split(/[,;]/)
        .map((tag) => tag.trim().replace(/^"|"$/g, ''))
        .filter(Boolean)
        .slice(0, 20);
      return {
        ok: true,
        row: {
          kind,
          email: email!,
          name: get('name') ?? joinName(get('firstName'), get('lastName')),
          status: subscriberStatus(rawStatus),
          rawStatus,
          optedInAt,
          tags,
        },
      };
    }
  }
}
