import { describe, expect, it } from 'vitest';
import { sign, verify } from '../../shared/adapters/processor-sandbox/signing';
import { addInterval, cardOutcome } from '../../shared/adapters/processor-sandbox/periods';

describe('processor notification signatures', () => {
  const body = '{"id":"ntf_1","type":"checkout.completed"}';
  it('accepts its own signature and refuses tampering, another secret, and stale timestamps', () => {
    const header = sign('secret', 1000, body);
    expect(header).toMatch(/^t=1000,v1=[0-9a-f]{64}$/);
    expect(verify('secret', header, body, 1000)).toEqual({ ok: true });
    expect(verify('secret', header, body + ' ', 1000).ok).toBe(false);
    expect(verify('other', header, body, 1000).ok).toBe(false);
    expect(verify('secret', header, body, 1000 + 301)).toEqual({ ok: false, reason: 'timestamp outside tolerance' });
    expect(verify('secret', undefined, body, 1000).ok).toBe(false);
    expect(verify('secret', 'garbage', body, 1000).ok).toBe(false);
  });
});

describe('billing periods and test cards', () => {
  it('adds calendar months and years, clamping to the month end', () => {
    expect(addInterval(new Date('2026-01-31T10:00:00Z'), 'monthly').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addInterval(new Date('2026-03-15T00:00:00Z'), 'monthly').toISOString()).toBe('2026-04-15T00:00:00.000Z');
    expect(addInterval(new Date('2026-12-31T00:00:00Z'), 'monthly').toISOString()).toBe('2027-01-31T00:00:00.000Z');
    expect(addInterval(new Date('2028-02-29T00:00:00Z'), 'yearly').toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(addInterval(new Date('2026-01-01T00:00:00Z'), 'weekly').toISOString()).toBe('2026-01-08T00:00:00.000Z');
  });
  it('knows the sandbox test cards', () => {
    expect(cardOutcome('4242 4242 4242 4242')).toBe('pays');
    expect(cardOutcome('4000000000000002')).toBe('declines');
    expect(cardOutcome('12')).toBe('invalid');
  });
});
