import { describe, expect, it } from 'vitest';
import { isPreviewRequest, linkAmountCents } from '../../shared/checkout/buy-link';
import { chosenAmountProblem } from '../../shared/checkout/service';
import { parseAmount } from '../../shared/adapters/processor-sandbox/hosted-checkout';
import { effectiveStatus, keyHash, keyPrefix, KEY_PATTERN, newLicenseKey, normalizeKey } from '../../shared/licenses/keys';
import { FILE_BYTES, MAX_PARTS, partsFor, uploadType, UPLOAD_BYTES } from '../../shared/product-files/types';

describe('licence keys', () => {
  it('are six groups of five unambiguous characters, different every time, normalised as typed', () => {
    const keys = new Set(Array.from({ length: 500 }, newLicenseKey));
    expect(keys.size).toBe(500);
    for (const key of keys) expect(key).toMatch(KEY_PATTERN);
    const key = [...keys][0]!;
    expect(normalizeKey(` ${key.toLowerCase()} `)).toBe(key);
    expect(normalizeKey('ABCDE-FGHJK')).toBeUndefined();
    expect(normalizeKey('ABCDE-FGHJK-LMNPQ-RSTUV-WXYZ2-3456O')).toBeUndefined();
    expect(keyPrefix(key)).toBe(key.slice(0, 5));
    expect(keyHash(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(keyHash(key)).not.toContain(key);
  });

  it('expire at their end; revoked and refunded stay so', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    expect(effectiveStatus({ status: 'active', endsAt: null }, now)).toBe('active');
    expect(effectiveStatus({ status: 'active', endsAt: '2026-06-01T00:00:00Z' }, now)).toBe('expired');
    expect(effectiveStatus({ status: 'active', endsAt: '2026-06-02T00:00:00Z' }, now)).toBe('active');
    expect(effectiveStatus({ status: 'revoked', endsAt: '2020-01-01T00:00:00Z' }, now)).toBe('revoked');
    expect(effectiveStatus({ status: 'refunded' }, now)).toBe('refunded');
  });
});

describe('product file types', () => {
  it('takes deliverable types and the seller allowed extensions, refuses others with the reason', () => {
    expect(uploadType('Book.PDF')).toEqual({ ok: true, ext: '.pdf', contentType: 'application/pdf' });
    expect(uploadType('setup.exe')).toMatchObject({ ok: false, reason: expect.stringContaining('".exe" files are not allowed') });
    expect(uploadType('setup.exe', ['.exe'])).toEqual({ ok: true, ext: '.exe', contentType: 'application/octet-stream' });
    expect(uploadType('README')).toMatchObject({ ok: false, reason: expect.stringContaining('without an extension') });
    expect(UPLOAD_BYTES.free).toBeLessThan(UPLOAD_BYTES.volume);
  });

  it('cuts a file into 8 MiB parts, larger ones when 10,000 would not hold it; the largest plan takes 2 GB', () => {
    const MiB = 1024 * 1024;
    expect(FILE_BYTES.volume).toBe(2048 * MiB);
    expect(partsFor(1)).toEqual({ partSize: 8 * MiB, partCount: 1 });
    expect(partsFor(8 * MiB)).toEqual({ partSize: 8 * MiB, partCount: 1 });
    expect(partsFor(8 * MiB + 1)).toEqual({ partSize: 8 * MiB, partCount: 2 });
    expect(partsFor(FILE_BYTES.volume)).toEqual({ partSize: 8 * MiB, partCount: 256 });
    const huge = partsFor(100_000 * MiB);
    expect(huge.partCount).toBeLessThanOrEqual(MAX_PARTS);
    expect(huge.partSize * huge.partCount).toBeGreaterThanOrEqual(100_000 * MiB);
  });
});

describe('pay what you want', () => {
  it('an amount is for pay-what-you-want products only, at least the minimum', () => {
    expect(chosenAmountProblem(null, 500, 'USD')).toContain('fixed price');
    expect(chosenAmountProblem({ minimumCents: 300 }, 299, 'USD')).toBe('amountCents: the minimum for this product is 3.00 USD');
    expect(chosenAmountProblem({ minimumCents: 300 }, 300, 'USD')).toBeUndefined();
    expect(chosenAmountProblem({ minimumCents: 0 }, 0, 'USD')).toBeUndefined();
    expect(chosenAmountProblem({ minimumCents: 0 }, 1.5, 'USD')).toContain('whole number');
  });

  it('reads amounts as buyers type them and links carry them', () => {
    expect(parseAmount('12')).toBe(1200);
    expect(parseAmount(' $1,250.5 ')).toBe(125050);
    expect(parseAmount('0')).toBe(0);
    expect(parseAmount('12.345')).toBeUndefined();
    expect(parseAmount('-1')).toBeUndefined();
    expect(parseAmount('ten')).toBeUndefined();
    expect(linkAmountCents('12.5')).toBe(1250);
    expect(linkAmountCents('1e3')).toBeUndefined();
  });
});

describe('buy links', () => {
  it('previews and prefetches open no checkout; browsers and plain clients do', () => {
    expect(isPreviewRequest({ 'user-agent': 'Slackbot-LinkExpanding 1.0' })).toBe(true);
    expect(isPreviewRequest({ 'user-agent': 'facebookexternalhit/1.1' })).toBe(true);
    expect(isPreviewRequest({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' })).toBe(true);
    expect(isPreviewRequest({ 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(isPreviewRequest({ purpose: 'prefetch' })).toBe(true);
    expect(
      isPreviewRequest({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36' }),
    ).toBe(false);
    expect(isPreviewRequest({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1' })).toBe(false);
    expect(isPreviewRequest({ 'user-agent': 'curl/8.5.0' })).toBe(false);
  });
});
