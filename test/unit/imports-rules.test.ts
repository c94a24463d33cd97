import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../shared/imports/platforms';
import {
  blobFileName,
  checkRow,
  detectMapping,
  mappingProblems,
  parseCsv,
  parseDate,
  parseMoney,
  rowHash,
  statusFromFilename,
  subscriberStatus,
} from '../../shared/imports/rules';

const opts = { source: 'csv', filename: 'x.csv' };

describe('imports: CSV parsing', () => {
  it('reads a BOM, CRLF, quoted cells with commas and newlines, and other delimiters', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","line\r\nbreak"\r\n')).toEqual({ header: ['a', 'b'], rows: [['x, y', 'line\r\nbreak']] });
    expect(parseCsv('a;b\n1;2\n')).toEqual({ header: ['a', 'b'], rows: [['1', '2']] });
    expect(parseCsv('a\tb\n1\t2')).toEqual({ header: ['a', 'b'], rows: [['1', '2']] });
    expect(() => parseCsv('\uFEFF')).toThrow(/empty/);
  });
});

describe('imports: mapping', () => {
  it('detects each platform export from its own columns', () => {
    for (const platform of PLATFORMS) {
      for (const entry of platform.exports) {
        const mapping = detectMapping(platform.id, entry.kind, entry.columns);
        for (const [field, column] of Object.entries(entry.fields)) expect(mapping[field], `${platform.id} ${entry.kind} ${field}`).toBe(column);
        expect(mappingProblems(entry.kind, mapping, entry.columns), `${platform.id} ${entry.kind}`).toEqual([]);
      }
    }
  });

  it('detects common spellings case-insensitively for the csv source, and leaves unknown columns unmapped', () => {
    const mapping = detectMapping('csv', 'subscribers', ['E-Mail', 'FIRST NAME', 'Status', 'Favourite colour']);
    expect(mapping).toMatchObject({ email: 'E-Mail', firstName: 'FIRST NAME', status: 'Status', tags: null });
  });

  it('names what is wrong with a mapping', () => {
    expect(mappingProblems('products', { name: 'Title', price: null, colour: 'x' }, ['Title'])).toEqual([
      'colour: not a field of products (fields: name, price, sourceId, description, fileUrl)',
      'colour: column "x" is not in the file',
      'price: required, map it to a column',
    ]);
  });
});

describe('imports: row validation', () => {
  const header = ['Title', 'Price', 'Email', 'Status', 'When'];
  const products = { name: 'Title', price: 'Price' };
  it('reads products and refuses a missing name or a price that is not one', () => {
    expect(checkRow('products', header, ['Book', '$1,200.50'], products, opts)).toEqual({
      ok: true,
      row: { kind: 'products', sourceId: null, name: 'Book', price: 1200.5, description: null, fileUrl: null },
    });
    expect(checkRow('products', header, ['', '5'], products, opts)).toEqual({ ok: false, reason: 'name: missing' });
    expect(checkRow('products', header, ['Book', 'free'], products, opts)).toEqual({ ok: false, reason: 'price: "free" is not a price' });
    expect(checkRow('products', header, ['Book', '-3'], products, opts)).toMatchObject({ ok: false });
  });

  it('checks emails and dates', () => {
    const mapping = { email: 'Email', status: 'Status', optedInAt: 'When' };
    expect(checkRow('subscribers', header, ['', '', 'nope', 'subscribed', ''], mapping, opts)).toEqual({
      ok: false,
      reason: 'email: "nope" is not an email address',
    });
    expect(checkRow('subscribers', header, ['', '', '', 'subscribed', ''], mapping, opts)).toEqual({ ok: false, reason: 'email: missing' });
    expect(checkRow('subscribers', header, ['', '', 'A@B.co', 'subscribed', 'soon'], mapping, opts)).toEqual({
      ok: false,
      reason: 'optedInAt: "soon" is not a date',
    });
    const ok = checkRow('subscribers', header, ['', '', 'A@B.co', 'Subscribed', '2024-01-02 03:04:05'], mapping, opts);
    expect(ok).toMatchObject({ ok: true, row: { email: 'a@b.co', status: 'subscribed', optedInAt: '2024-01-02T03:04:05.000Z' } });
  });

  it('gives no consent to archived, requires_verification or unknown statuses', () => {
    expect(subscriberStatus('archived')).toBeNull();
    expect(subscriberStatus('requires_verification')).toBeNull();
    expect(subscriberStatus('pending')).toBeNull();
    expect(subscriberStatus('')).toBeNull();
    expect(subscriberStatus('Unsubscribed')).toBe('unsubscribed');
    expect(subscriberStatus('cleaned')).toBe('bounced');
    expect(subscriberStatus('yes')).toBe('subscribed');
  });

  it('takes a Mailchimp file status from its file name when no column says it', () => {
    expect(statusFromFilename('mailchimp', 'unsubscribed_members_export_abc.csv')).toBe('unsubscribed');
    expect(statusFromFilename('mailchimp', 'audience.csv')).toBeNull();
    expect(statusFromFilename('csv', 'subscribed_members.csv')).toBeNull();
    const row = checkRow(
      'subscribers',
      ['Email Address'],
      ['x@y.co'],
      { email: 'Email Address' },
      { source: 'mailchimp', filename: 'cleaned_members_export_1.csv' },
    );
    expect(row).toMatchObject({ ok: true, row: { status: 'bounced' } });
  });

  it('keys an order by its platform id, or by a stable hash of the row', () => {
    const head = ['Order', 'Email', 'Total'];
    const map = { orderId: 'Order', email: 'Email', amount: 'Total' };
    expect(checkRow('orders', head, ['#1001', 'a@b.co', '12.5'], map, opts)).toMatchObject({ ok: true, row: { key: 'id:#1001', amountCents: 1250 } });
    const noId = checkRow('orders', head, ['', 'a@b.co', '12.5'], map, opts);
    expect(noId).toMatchObject({ ok: true, row: { key: `hash:${rowHash(['', 'a@b.co', '12.5'])}` } });
    expect(rowHash(['a'])).toBe(rowHash(['a']));
    expect(rowHash(['a'])).not.toBe(rowHash(['b']));
  });

  it('reads dates as platforms write them, with the offset when one is given', () => {
    expect(parseDate('2023-01-02 10:00:00')).toBe('2023-01-02T10:00:00.000Z');
    expect(parseDate('2023-02-01 10:00:00 -0500')).toBe('2023-02-01T15:00:00.000Z');
    expect(parseDate('2023-02-01 9:05 +0530')).toBe('2023-02-01T03:35:00.000Z');
    expect(parseDate('2021-03-04T05:06:07+00:00')).toBe('2021-03-04T05:06:07.000Z');
    expect(parseDate('2023-04-01')).toBe('2023-04-01T00:00:00.000Z');
    expect(parseDate('')).toBeNull();
    expect(parseDate('yesterday')).toBeUndefined();
  });

  it('reads money as platforms write it', () => {
    expect(parseMoney('$1,234.50')).toBe(1234.5);
    expect(parseMoney('12,00')).toBe(12);
    expect(parseMoney('9.99 USD')).toBe(9.99);
    expect(parseMoney('abc')).toBeNaN();
  });
});

describe('product file names in blob keys', () => {
  it('keeps word characters, dots and dashes, and never leaves a dot segment', () => {
    const names = { 'My Book (v2).pdf': 'My_Book_v2_.pdf', '..': '_', '.': '_', '...': '...', '': '_' };
    expect(Object.fromEntries(Object.keys(names).map((name) => [name, blobFileName(name)]))).toEqual(names);
  });
});
