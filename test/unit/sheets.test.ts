import { describe, expect, it } from 'vitest';
import { exhausted, nextBatchAt, retryDelayMs, syncNowWaitSeconds } from '../../shared/sheets/backoff';
import { factsFromOrderEvent, rowStatus, saleKind, salesRow, utcCell } from '../../shared/sheets/layout';
import { withBackoff } from '../../shared/adapters/spreadsheet-google/backoff';

describe('sheet batch timing', () => {
  it('retries after 1, 2, 4… minutes, capped at 6 hours, and gives up at the 8th refusal', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(n) / 60_000)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(retryDelayMs(20)).toBe(6 * 3600_000);
    expect(exhausted(7)).toBe(false);
    expect(exhausted(8)).toBe(true);
  });
  it('lines batches up on 2-minute marks and allows sync-now once a minute', () => {
    expect(nextBatchAt(0)).toBe(120_000);
    expect(nextBatchAt(119_999)).toBe(120_000);
    expect(nextBatchAt(120_000)).toBe(240_000);
    expect(syncNowWaitSeconds(undefined, 5)).toBe(0);
    expect(syncNowWaitSeconds(0, 30_000)).toBe(30);
    expect(syncNowWaitSeconds(0, 60_000)).toBe(0);
  });
});

describe('sheet rows', () => {
  it('maps sale types and statuses as the spec names them', () => {
    expect(saleKind('one_time')).toBe('one-time');
    expect(saleKind('subscription', 'initial')).toBe('subscription');
    expect(saleKind('subscription', 'renewal')).toBe('renewal');
    expect(saleKind('subscription', 'usage')).toBe('usage');
    expect(['completed', 'refunded', 'disputed'].map(rowStatus)).toEqual(['paid', 'refunded', 'disputed']);
    expect(utcCell('2024-05-01T13:04:05.123Z')).toBe('2024-05-01 13:04:05');
  });
  it('builds a Sales row from order.completed data with money as numbers', () => {
    const facts = factsFromOrderEvent({
      order: {
        id: 'o1',
        type: 'subscription',
        billingReason: 'renewal',
        status: 'completed',
        amount: 12.5,
        currency: 'eur',
        createdAt: '2024-05-01T13:04:05.000Z',
      },
      product: { name: 'Club' },
      customer: { email: 'Ann@Example.com', firstName: 'Ann', lastName: null, country: 'DE' },
      tax: { taxAmount: 2, taxRate: 0.19 },
    })!;
    expect(salesRow(facts)).toEqual(['2024-05-01 13:04:05', 'o1', 'Club', 'renewal', 'ann@example.com', 'Ann', 'DE', 12.5, 2, 0, 10.5, 'EUR', 'paid']);
    expect(factsFromOrderEvent({ order: {} })).toBeUndefined();
  });
});

describe('provider back-off', () => {
  const failing = (statuses: number[]) => {
    let calls = 0;
    return {
      run: async () => {
        const status = statuses[calls++];
        if (status) throw Object.assign(new Error('x'), { status });
        return 'ok';
      },
      calls: () => calls,
    };
  };
  it('retries 429 always, 5xx only when the call is safe to repeat, and stops at the limit', async () => {
    const sleeps: number[] = [];
    const options = { retries: 2, baseDelayMs: 10, maxDelayMs: 1000, sleep: async (ms: number) => void sleeps.push(ms) };
    const a = failing([429, 429]);
    expect(await withBackoff(a.run, options, false)).toBe('ok');
    expect(a.calls()).toBe(3);
    expect(sleeps[1]!).toBeGreaterThan(sleeps[0]! - 10);
    const b = failing([503]);
    await expect(withBackoff(b.run, options, false)).rejects.toThrow();
    expect(b.calls()).toBe(1);
    const c = failing([503, 503, 503]);
    await expect(withBackoff(c.run, options, true)).rejects.toThrow();
    expect(c.calls()).toBe(3);
    const d = failing([400]);
    await expect(withBackoff(d.run, options, true)).rejects.toThrow();
    expect(d.calls()).toBe(1);
  });
});
